/** The JSON inside prose or a ```json fence — the most common near-miss from smaller models. */
export function lenientJson(text: string): unknown {
  const fenced = text.match(/```(?:json)?\s*([\s\S]*?)```/i)?.[1];
  const candidate = fenced ?? text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  if (!candidate.trim()) return undefined;
  try {
    return JSON.parse(candidate);
  } catch {
    return undefined;
  }
}
