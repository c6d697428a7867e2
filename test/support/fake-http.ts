// A local stand-in for a search provider's API: records every request and answers from a
// handler, on 127.0.0.1 at a random port. Test-only.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): unknown;
}

export interface FakeReply {
  status?: number;
  json?: unknown;
  text?: string;
  contentType?: string;
  /** Wait this long before answering (abort/timeout tests). */
  delayMs?: number;
}

export interface FakeServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeServer(
  handler: (req: RecordedRequest) => FakeReply | Promise<FakeReply>,
): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const u = new URL(req.url ?? "/", "http://fake");
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: u.pathname,
      query: u.searchParams,
      headers: req.headers,
      body,
      json: () => JSON.parse(body),
    };
    requests.push(recorded);
    const reply = await handler(recorded);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    const payload = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? "");
    res.writeHead(reply.status ?? 200, {
      "content-type": reply.contentType ?? (reply.json !== undefined ? "application/json" : "text/plain"),
    });
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
