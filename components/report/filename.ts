import { fileBaseName } from "@/lib/server/exports/file-name";

/** A download's file name from the run's question: lower-case words joined by dashes, ASCII only. */
export function reportFilename(question: string): string {
  return `${fileBaseName(question)}.md`;
}
