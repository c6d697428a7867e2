"use client";

import { type ComponentProps, lazy, Suspense } from "react";

const Markdown = lazy(() => import("./markdown").then((m) => ({ default: m.Markdown })));

/**
 * The Markdown renderer (react-markdown, micromark: a large chunk), loaded when the browser first
 * has Markdown to render: the page of a finished run gets its report rendered by the server and
 * does not wait for it. The server renders it in place (SSR awaits the chunk); the browser keeps
 * that HTML until the chunk arrives. Nothing is shown meanwhile for text rendered only in the browser.
 */
export function LazyMarkdown(props: ComponentProps<typeof Markdown>) {
  return (
    <Suspense fallback={null}>
      <Markdown {...props} />
    </Suspense>
  );
}
