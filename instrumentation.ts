export async function register() {
  // The database drivers are Node-only; the edge runtime never touches them.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { bootstrap } = await import("./lib/server/bootstrap.ts");
    await bootstrap();
  }
}
