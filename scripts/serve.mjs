// The production HTTP server: Next.js's own request handler behind a plain node:http server, so the
// client address rate limits are keyed by comes from the socket. `next start` keeps any
// X-Forwarded-For a client sends, which would let anyone pick their own rate-limit key; here the
// header is trusted only with TRUST_PROXY=true (a reverse proxy in front sets it).
import http from "node:http";
import next from "next";

const port = Number(process.env.PORT || 3000);
// HOST narrows the listening address (e.g. 127.0.0.1); unset, every interface, like `next start`.
const host = process.env.HOST || undefined;
const trustProxy = ["1", "true", "yes", "on"].includes((process.env.TRUST_PROXY ?? "").toLowerCase());

const app = next({ dev: false, dir: process.cwd(), hostname: host ?? "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  if (!trustProxy) req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
  handle(req, res);
});
server.listen(port, host, () => {
  console.log(`[deep-research] listening on http://${host ?? "localhost"}:${port}`);
});
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    server.close();
    process.exit(0);
  });
}
