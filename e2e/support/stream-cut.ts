/**
 * A page's event stream, cut from the test's side. Chromium keeps an open EventSource through
 * `context.setOffline(true)`, so going offline never makes the page reconnect. Instead the page's
 * requests for one run's events are sent (page.route → continue to another URL, which the page does
 * not see) through a relay in the test process that passes the stream through as it comes and can
 * drop its connections on demand: the browser's EventSource errors and reconnects by itself with
 * Last-Event-ID, exactly as after a real network failure. Nothing in the app knows about it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { sharedApp } from "./session.ts";

export interface StreamCut {
  /** Each connection the page made through the relay: the Last-Event-ID it reconnected with, if any. */
  readonly connections: { lastEventId: string | null }[];
  /** Drops every open stream (the page sees its connection fail) and holds new ones until `restore`. */
  cut(): void;
  /** Lets the held reconnects (and any later one) through to the app. */
  restore(): void;
  close(): Promise<void>;
}

/** Relays the page's event streams of run `runId` through the test process; see StreamCut. */
export async function relayEventStreams(page: Page, runId: string, app = sharedApp()): Promise<StreamCut> {
  const open = new Set<{ req: http.ClientRequest; res: http.ServerResponse }>();
  let held: (() => void)[] = [];
  let cutNow = false;
  const connections: { lastEventId: string | null }[] = [];

  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const headers = { ...req.headers, host: new URL(app.url).host };
    headers.cookie ??= app.cookie;
    const upstream = http.request(new URL(req.url ?? "/", app.url), { method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    const pair = { req: upstream, res };
    open.add(pair);
    const forget = () => open.delete(pair);
    res.on("close", () => {
      forget();
      upstream.destroy();
    });
    upstream.on("error", () => res.destroy());
    upstream.end();
  };

  const server = http.createServer((req, res) => {
    const id = req.headers["last-event-id"];
    connections.push({ lastEventId: typeof id === "string" ? id : null });
    if (cutNow) held.push(() => forward(req, res));
    else forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const relay = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const events = (url: URL) => url.pathname === `/api/runs/${runId}/events`;
  await page.route(events, (route) => {
    const url = new URL(route.request().url());
    return route.continue({ url: `${relay}${url.pathname}${url.search}` });
  });

  return {
    connections,
    cut() {
      cutNow = true;
      for (const { req, res } of open) {
        // The socket itself, not a clean end: the browser sees the connection fail mid-stream.
        res.socket?.destroy();
        req.destroy();
      }
      open.clear();
    },
    restore() {
      cutNow = false;
      const waiting = held;
      held = [];
      for (const go of waiting) go();
    },
    async close() {
      await page.unroute(events).catch(() => {});
      for (const { req, res } of open) {
        res.socket?.destroy();
        req.destroy();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
