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

// BACKUP_TOKEN held an admin's API token before tokens had scopes; backups now take a secret of their own.
if (process.env.BACKUP_TOKEN) {
  console.error(
    "BACKUP_TOKEN is no longer used: API tokens cannot take backups. Set BACKUP_SECRET instead (a secret of its own: " +
      "`openssl rand -base64 32`), give the same value to `npm run backup`, and remove BACKUP_TOKEN (docs/operations.md, Backups).",
  );
  process.exit(1);
}

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
