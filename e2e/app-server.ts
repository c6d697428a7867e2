/**
 * Starts the built Next.js app (scripts/serve.mjs, what `npm start` runs) as a child process with the given environment and
 * waits until /api/health answers. Test code only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

export interface AppServer {
  url: string;
  port: number;
  process: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export async function startApp(env: Record<string, string>, timeoutMs = 60_000): Promise<AppServer> {
  const port = await freePort();
  const root = path.resolve(import.meta.dirname, "..");
  const child = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs")], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (d) => {
    log += d;
  });
  child.stderr?.on("data", (d) => {
    log += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`app exited with ${child.exitCode} before it was ready:\n${log}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`app not healthy within ${timeoutMs} ms:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    process: child,
    output: () => log,
    stop: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}

/** Starts a standalone `npm run worker` process (lib/jobs/worker-main.ts) and waits until it is ready. */
export async function startWorker(env: Record<string, string>, timeoutMs = 30_000): Promise<AppServer> {
  const root = path.resolve(import.meta.dirname, "..");
  const child = spawn(process.execPath, [path.join(root, "lib", "jobs", "worker-main.ts")], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker not ready within ${timeoutMs} ms:\n${log}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      log += d;
      if (log.includes("worker ready")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (d) => {
      log += d;
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${log}`));
    });
  });
  await ready;
  return {
    url: "",
    port: 0,
    process: child,
    output: () => log,
    stop: (signal = "SIGTERM") =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}
