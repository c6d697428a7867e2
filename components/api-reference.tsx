"use client";

import "@scalar/api-reference-react/style.css";
import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";

/** Shown until the viewer has loaded, in the page's language. */
function Loading() {
  const t = useTranslations("apiDocs");
  return <p className="px-4 py-6 text-sm text-muted">{t("loading")}</p>;
}

// The viewer touches the DOM as it loads: it runs in the browser only.
const ApiReferenceReact = dynamic(
  () => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact),
  { ssr: false, loading: () => <Loading /> },
);

/**
 * The app's colours for Scalar's variables: zinc greys, the blue of the app's links, the
 * secondary text's AA contrast (zinc-600 / zinc-400, as `text-muted`) and HTTP methods' colours
 * that keep 4.5:1 on either background (Scalar's own green and red do not). Fonts are the system's: the
 * viewer's default ones come from a CDN, which the page's policy (font-src 'self') would refuse.
 */
const appStyle = `
.light-mode {
  --scalar-background-1: #fafafa; --scalar-background-2: #ffffff; --scalar-background-3: #f4f4f5;
  --scalar-color-1: #18181b; --scalar-color-2: #3f3f46; --scalar-color-3: #52525b;
  --scalar-color-accent: #1d4ed8; --scalar-background-accent: #dbeafe; --scalar-border-color: #e4e4e7;
  --scalar-color-green: #15803d; --scalar-color-red: #b91c1c; --scalar-color-yellow: #a16207;
  --scalar-color-blue: #1d4ed8; --scalar-color-orange: #c2410c; --scalar-color-purple: #7e22ce;
}
.dark-mode {
  --scalar-background-1: #09090b; --scalar-background-2: #18181b; --scalar-background-3: #27272a;
  --scalar-color-1: #f4f4f5; --scalar-color-2: #d4d4d8; --scalar-color-3: #a1a1aa;
  --scalar-color-accent: #60a5fa; --scalar-background-accent: #1e3a8a; --scalar-border-color: #27272a;
  --scalar-color-green: #4ade80; --scalar-color-red: #f87171; --scalar-color-yellow: #facc15;
  --scalar-color-blue: #60a5fa; --scalar-color-orange: #fb923c; --scalar-color-purple: #c084fc;
}
.scalar-app, .scalar-api-reference {
  --scalar-font: ui-sans-serif, system-ui, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, monospace;
}
`;

/**
 * The API reference, rendered in the browser by Scalar from the OpenAPI document the server passes
 * in (no second request, nothing from another origin): read-only — no "try it" client, whose
 * requests would go through Scalar's proxy — and following the person's colour scheme like the app.
 */
export function ApiReference({ document }: { document: object }) {
  return (
    <ApiReferenceReact
      configuration={{
        content: document,
        theme: "default",
        customCss: appStyle,
        withDefaultFonts: false,
        hideClientButton: true,
        hideTestRequestButton: true,
        hideDarkModeToggle: true,
        documentDownloadType: "json",
        telemetry: false,
        showDeveloperTools: "never",
        mcp: { disabled: true },
      }}
    />
  );
}
