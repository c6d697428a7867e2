// Local web for tests: realistic article pages, a SearXNG-compatible JSON search endpoint,
// hostile endpoints (slow, huge, redirect, binary) for safe-fetch tests, and a prompt-injection
// page with the collector it points at (web-fixture-hostile.ts). Never used in production.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createPageEditor, type PageEdits } from "./web-fixture-edits.ts";
import {
  COLLECTED_PATH,
  COLLECTOR_PATH,
  type CollectedRequest,
  createCollector,
  HOSTILE_PAGE_PATH,
  renderHostilePage,
} from "./web-fixture-hostile.ts";

/** The fixture's own request log as JSON: `{paths}` of every request served, this one included. */
export const REQUEST_LOG_PATH = "/__fixture/requests";

export interface WebFixture {
  url: string;
  port: number;
  pages: { slug: string; url: string; title: string; text: string }[];
  /** The injection page (not in search results): it asks an agent to call the collector with its brief. */
  hostilePageUrl: string;
  /** Every request the collector received (also served as JSON at COLLECTED_PATH). */
  collected: readonly CollectedRequest[];
  /** Every request the fixture served: path, start and end (benchmarks measure time in flight). */
  requests: readonly { path: string; at: number; endedAt?: number }[];
  /** Test-only changes to the pages (also over HTTP: web-fixture-edits.ts); `pages` stays the originals. */
  edits: PageEdits;
  close(): Promise<void>;
}

interface Article {
  slug: string;
  lang: string;
  site: string;
  title: string;
  author: string;
  date: string;
  paragraphs: string[];
}

// A coherent theme (heat pumps vs gas boilers) so multi-directive research runs find
// overlapping but distinct sources. The publications are fictional.
const ARTICLES: Article[] = [
  {
    slug: "heat-pump-efficiency-cop",
    lang: "en",
    site: "Home Energy Review",
    title: "Heat pump efficiency explained: what COP and SCOP really mean",
    author: "Dana Whitfield",
    date: "2024-03-12",
    paragraphs: [
      "A heat pump does not burn fuel to make heat. It moves heat that already exists in outdoor air, the ground or water into a building, using electricity to drive a compressor. That is why its efficiency is expressed as a coefficient of performance (COP): the units of heat delivered for each unit of electricity consumed.",
      "A modern air-source heat pump typically reaches a COP of 3 to 4 at mild outdoor temperatures around 7 °C, meaning one kilowatt-hour of electricity yields three to four kilowatt-hours of heat. A condensing gas boiler, by comparison, converts at best about 90 to 94 percent of the energy in the gas into useful heat, an efficiency below 1 when expressed the same way.",
      "COP is measured at fixed test conditions, so it says little about a whole winter. The seasonal coefficient of performance (SCOP) and the seasonal performance factor (SPF) measured in real homes average over cold and mild days. Field studies of air-source heat pumps in existing houses commonly report seasonal performance factors between 2.8 and 3.6, while ground-source systems reach 3.5 to 4.5.",
      "The single biggest influence on efficiency is the flow temperature of the heating water. Every degree lower improves the COP by roughly 2 to 3 percent. Systems designed for 35 to 45 °C flow temperatures, with larger radiators or underfloor heating, routinely outperform those forced to deliver 55 °C or more.",
      "Installers therefore size emitters and set weather compensation curves so that the heat pump runs long, gentle cycles. Frequent on-off cycling, undersized radiators and poorly commissioned controls are the most common reasons a heat pump underperforms its rated efficiency.",
    ],
  },
  {
    slug: "running-costs-heat-pump-vs-gas-boiler",
    lang: "en",
    site: "The Energy Ledger",
    title: "Running costs: heat pump vs gas boiler in 2024",
    author: "Marcus Oyelaran",
    date: "2024-05-02",
    paragraphs: [
      "Whether a heat pump is cheaper to run than a gas boiler depends almost entirely on two numbers: the ratio between electricity and gas prices, and the seasonal efficiency of the heat pump. If electricity costs three times as much per kilowatt-hour as gas, a heat pump needs a seasonal efficiency of about 2.8 just to break even with a 93 percent efficient boiler.",
      "For a typical three-bedroom house with an annual heat demand of 12,000 kWh, a gas boiler uses roughly 12,900 kWh of gas. At 7 cents per kWh that is about 900 euros a year before standing charges. A heat pump with an SPF of 3.2 needs about 3,750 kWh of electricity; at 28 cents per kWh that costs about 1,050 euros, so at these prices the heat pump is slightly more expensive to run.",
      "The picture changes with tariffs. Time-of-use and dedicated heat pump tariffs, common in several European countries, cut the effective electricity price to 20 cents or less, which makes the heat pump around 20 percent cheaper than gas. Households with rooftop solar panels can cover part of the shoulder-season demand themselves.",
      "Standing charges matter too. A household that removes its gas connection entirely no longer pays the gas standing charge, typically 100 to 300 euros per year, which often tips the balance in favour of the heat pump.",
      "Maintenance costs are similar: both systems need an annual service, although a heat pump has no combustion parts, flue or gas safety check. Over a 15 to 20 year lifetime the running cost difference depends more on future energy prices and carbon taxes than on the equipment itself.",
    ],
  },
  {
    slug: "cold-climate-heat-pump-performance",
    lang: "en",
    site: "Northern Building Science",
    title: "Do heat pumps work in cold climates? Field data from Scandinavia and Canada",
    author: "Ingrid Solberg",
    date: "2023-11-20",
    paragraphs: [
      "A persistent myth holds that heat pumps stop working when it gets properly cold. The countries with the highest heat pump adoption in Europe, Norway, Finland and Sweden, also have some of the coldest winters, and more than half of Norwegian homes now use a heat pump.",
      "Efficiency does fall as the outdoor temperature drops, because the heat pump must lift heat across a larger temperature difference. A cold-climate air-source unit that achieves a COP of 3.5 at 7 °C will typically deliver a COP of around 2 at −15 °C and still above 1.5 at −25 °C, so it remains more efficient than direct electric resistance heating even in severe frost.",
      "Capacity falls as well. Cold-climate models with vapour injection compressors maintain most of their rated output down to −15 °C or −20 °C, but installers in Canada and Scandinavia size systems against the design temperature of the location and often add a small backup heater for the coldest few days of the year.",
      "Defrost cycles are the other cold-weather cost. Around 0 to 5 °C with high humidity, frost builds up on the outdoor coil and the unit periodically reverses to melt it, which can reduce seasonal efficiency by a few percent. Well-designed controls only defrost when needed.",
      "Field monitoring in Canadian homes has found that cold-climate heat pumps covered the large majority of annual heating demand without backup, with seasonal performance factors between 2 and 3 even where winter lows regularly reach −25 °C.",
    ],
  },
  {
    slug: "heating-emissions-comparison",
    lang: "en",
    site: "Climate Numbers",
    title: "Carbon emissions of home heating: heat pumps versus gas boilers",
    author: "Priya Natarajan",
    date: "2024-01-15",
    paragraphs: [
      "Burning natural gas in a boiler emits about 200 grams of CO2 per kilowatt-hour of gas, or roughly 215 grams per kilowatt-hour of delivered heat once boiler losses are included. Methane leaks upstream in gas production and transport add to that figure.",
      "A heat pump's emissions depend on the carbon intensity of the electricity grid and on its seasonal efficiency. With grid electricity at 400 grams of CO2 per kWh and a seasonal performance factor of 3, each kilowatt-hour of heat causes about 133 grams of CO2, around 40 percent less than a gas boiler.",
      "On grids dominated by renewables and nuclear power the advantage grows quickly. At 100 grams per kWh, as in France or the Nordic countries, a heat pump emits around 35 grams per kilowatt-hour of heat, an 80 to 85 percent reduction compared with gas.",
      "Because grids are decarbonising, the emissions of a heat pump installed today fall over its lifetime, while a gas boiler's emissions stay fixed. Lifecycle studies that include manufacturing and refrigerant leakage still find heat pumps lower-carbon in almost every European country.",
      "Refrigerants are the remaining concern. Older units used hydrofluorocarbons with high global warming potential; newer models increasingly use propane (R290) or CO2 as refrigerants, which have a negligible climate impact if they leak.",
    ],
  },
  {
    slug: "heat-pump-installation-guide",
    lang: "en",
    site: "Practical Homeowner",
    title: "Installing a heat pump: costs, disruption and what to check first",
    author: "Tom Hargreaves",
    date: "2024-02-28",
    paragraphs: [
      "Replacing a gas boiler with an air-source heat pump usually takes two to five days. The outdoor unit needs a spot with free airflow, typically on a wall bracket or concrete pad, and a hot water cylinder is required because heat pumps do not heat water on demand like a combi boiler.",
      "Before anything is installed, a room-by-room heat loss calculation should establish how much heat the house needs on the coldest design day. This determines the size of the heat pump and whether any radiators need to be replaced with larger ones to work at lower flow temperatures.",
      "Installed costs for air-source systems commonly range from 8,000 to 15,000 euros before subsidies, against 2,500 to 4,000 euros for a new gas boiler. Many countries offer grants that cover a large share of the difference, and ground-source systems cost considerably more because of drilling or trenching.",
      "Insulation and draught-proofing are worth doing first: reducing heat demand lets a smaller, cheaper heat pump run at lower flow temperatures, which improves efficiency and comfort. A house does not need to be a new build, but very leaky buildings benefit most from fabric improvements.",
      "Noise from the outdoor unit is typically 40 to 60 decibels at one metre, comparable to a refrigerator or quiet conversation. Local planning rules often set minimum distances from neighbours' windows, so checking them before choosing the location avoids delays.",
    ],
  },
  {
    slug: "waermepumpe-altbau",
    lang: "de",
    site: "Energiewende Magazin",
    title: "Wärmepumpe im Altbau: Lohnt sich der Umstieg von der Gasheizung?",
    author: "Katrin Vogel",
    date: "2024-04-09",
    paragraphs: [
      "Viele Hausbesitzer fragen sich, ob eine Wärmepumpe auch in einem unsanierten Altbau sinnvoll ist. Feldtests in Bestandsgebäuden zeigen, dass Luft-Wasser-Wärmepumpen dort im Mittel Jahresarbeitszahlen von etwa 3 erreichen, also aus einer Kilowattstunde Strom rund drei Kilowattstunden Wärme erzeugen.",
      "Entscheidend ist die Vorlauftemperatur. Liegt sie an kalten Tagen unter 55 Grad, arbeitet die Wärmepumpe in den meisten Altbauten effizient. Oft genügt es, einzelne Heizkörper gegen größere Modelle zu tauschen, statt das ganze Haus zu dämmen.",
      "Im Vergleich zur Gasheizung sinken die CO2-Emissionen mit dem heutigen deutschen Strommix um etwa 40 bis 50 Prozent, mit Ökostrom deutlich stärker. Der steigende CO2-Preis auf Erdgas verteuert zudem den Betrieb einer Gasheizung in den kommenden Jahren.",
      "Die Anschaffung ist teurer: Eine Luft-Wasser-Wärmepumpe kostet inklusive Einbau häufig 20.000 bis 35.000 Euro, eine neue Gasbrennwerttherme deutlich weniger. Die staatliche Förderung kann jedoch einen großen Teil der Investitionskosten abdecken.",
      "Fachleute empfehlen, vor dem Umstieg eine raumweise Heizlastberechnung durchführen zu lassen und die Heizkurve nach dem Einbau sorgfältig einzustellen. Ein hydraulischer Abgleich sorgt dafür, dass alle Räume mit möglichst niedriger Vorlauftemperatur warm werden.",
    ],
  },
];

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// Boilerplate (nav, cookie banner, related links, footer) surrounds the <article> so content
// extraction has something to strip.
function renderArticle(a: Article): string {
  const de = a.lang === "de";
  return `<!doctype html>
<html lang="${a.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(a.title)} | ${escapeHtml(a.site)}</title>
<meta name="description" content="${escapeHtml(a.paragraphs[0].slice(0, 150))}">
<meta name="author" content="${escapeHtml(a.author)}">
<meta property="og:title" content="${escapeHtml(a.title)}">
<meta property="og:type" content="article">
<meta property="article:published_time" content="${a.date}">
<link rel="stylesheet" href="/static/site.css">
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);}</script>
</head>
<body>
<div class="cookie-banner" role="dialog">${de ? "Wir verwenden Cookies, um Ihr Erlebnis zu verbessern." : "We use cookies to improve your experience."} <button>${de ? "Akzeptieren" : "Accept"}</button></div>
<header class="site-header">
  <a class="logo" href="/">${escapeHtml(a.site)}</a>
  <nav aria-label="${de ? "Hauptnavigation" : "Main navigation"}">
    <ul>
      <li><a href="/">${de ? "Startseite" : "Home"}</a></li>
      <li><a href="/topics/heating">${de ? "Heizung" : "Heating"}</a></li>
      <li><a href="/topics/solar">${de ? "Solar" : "Solar"}</a></li>
      <li><a href="/newsletter">${de ? "Newsletter abonnieren" : "Subscribe to our newsletter"}</a></li>
    </ul>
  </nav>
</header>
<main>
<article>
  <h1>${escapeHtml(a.title)}</h1>
  <p class="byline">${de ? "Von" : "By"} <span class="author">${escapeHtml(a.author)}</span> · <time datetime="${a.date}">${a.date}</time></p>
${a.paragraphs.map((p) => `  <p>${escapeHtml(p)}</p>`).join("\n")}
</article>
<aside class="related">
  <h2>${de ? "Das könnte Sie auch interessieren" : "Related reading"}</h2>
  <ul>
    <li><a href="/pages/heat-pump-efficiency-cop.html">${de ? "Effizienz erklärt" : "Efficiency explained"}</a></li>
    <li><a href="/pages/heat-pump-installation-guide.html">${de ? "Installationsratgeber" : "Installation guide"}</a></li>
  </ul>
  <div class="ad">${de ? "Anzeige" : "Advertisement"}: Save 10% on smart thermostats this week only!</div>
</aside>
</main>
<footer class="site-footer">
  <p>© 2024 ${escapeHtml(a.site)}. ${de ? "Alle Rechte vorbehalten." : "All rights reserved."}</p>
  <p><a href="/privacy">${de ? "Datenschutz" : "Privacy policy"}</a> · <a href="/imprint">${de ? "Impressum" : "Imprint"}</a> · <a href="/contact">${de ? "Kontakt" : "Contact"}</a></p>
</footer>
</body>
</html>
`;
}

const STOPWORDS = new Set(
  "a an and are as at be by do does for from how in is it of on or the to vs versus what with der die das und im ist von zur zum ein eine".split(
    " ",
  ),
);

function terms(s: string): string[] {
  return (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length > 1 && !STOPWORDS.has(t));
}

function countTerm(haystack: string[], term: string): number {
  let n = 0;
  for (const w of haystack) if (w === term || (term.length >= 4 && w.startsWith(term))) n++;
  return n;
}

// The sentence sharing most terms with the query, clipped like a search engine snippet.
function snippet(text: string, queryTerms: string[]): string {
  const sentences = text.split(/(?<=[.!?])\s+/);
  let best = sentences[0] ?? "";
  let bestScore = -1;
  for (const s of sentences) {
    const words = terms(s);
    const score = queryTerms.reduce((n, t) => n + (countTerm(words, t) > 0 ? 1 : 0), 0);
    if (score > bestScore) {
      best = s;
      bestScore = score;
    }
  }
  return best.length > 220 ? `${best.slice(0, 217)}...` : best;
}

function sendText(res: http.ServerResponse, status: number, type: string, body: string | Buffer) {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export async function startWebFixture(
  opts: {
    port?: number;
    /** A fixed delay before every answer (benchmarks: a web that answers in this time). */
    latencyMs?: number;
  } = {},
): Promise<WebFixture> {
  const requests: { path: string; at: number; endedAt?: number }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const collector = createCollector();
  let base = "";

  const edits = createPageEditor(ARTICLES);
  // The pages as served now (edited ones with their new text, taken-down ones left out), indexed per search.
  const indexPages = () =>
    edits.live().map((a) => ({
      article: a,
      text: a.paragraphs.join("\n\n"),
      titleTerms: terms(a.title),
      bodyTerms: terms(a.paragraphs.join(" ")),
    }));

  function search(q: string) {
    const indexed = indexPages();
    const queryTerms = [...new Set(terms(q))];
    // Term overlap, damped (log tf) and weighted by rarity (idf) so that common words like
    // "heat" or "cost" do not outrank the page matching the query's distinctive terms.
    const tf = (p: (typeof indexed)[number], t: string) =>
      countTerm(p.titleTerms, t) * 3 + countTerm(p.bodyTerms, t);
    const idf = new Map(
      queryTerms.map((t) => [
        t,
        Math.log(1 + indexed.length / (indexed.filter((p) => tf(p, t) > 0).length || 1)),
      ]),
    );
    const scored = indexed
      .map((p) => {
        let score = 0;
        for (const t of queryTerms) {
          const n = tf(p, t);
          if (n > 0) score += (idf.get(t) ?? 0) * (1 + Math.log(n));
        }
        return { p, score };
      })
      .filter((s) => s.score > 0)
      .sort((x, y) => y.score - x.score);
    const max = scored[0]?.score ?? 1;
    return scored.map(({ p, score }, i) => {
      const url = `${base}/pages/${p.article.slug}.html`;
      const u = new URL(url);
      return {
        url,
        title: p.article.title,
        content: snippet(p.text, queryTerms),
        engine: "fixture",
        engines: ["fixture"],
        // SearXNG scores are unbounded floats; normalise so the top hit is 1.
        score: Math.round((score / max) * 1000) / 1000,
        category: "general",
        parsed_url: [u.protocol.replace(":", ""), u.host, u.pathname, "", u.search.replace("?", ""), ""],
        positions: [i + 1],
        template: "default.html",
        publishedDate: `${p.article.date}T00:00:00`,
        thumbnail: "",
        img_src: "",
        priority: "",
      };
    });
  }

  const handlers: Record<string, (url: URL, req: http.IncomingMessage, res: http.ServerResponse) => void> = {
    "/": (_url, _req, res) => {
      const links = ARTICLES.map(
        (a) => `<li><a href="/pages/${a.slug}.html">${escapeHtml(a.title)}</a></li>`,
      ).join("\n");
      sendText(
        res,
        200,
        "text/html; charset=utf-8",
        `<!doctype html><title>Fixture</title><ul>${links}</ul>`,
      );
    },
    "/search": (url, _req, res) => {
      const format = url.searchParams.get("format");
      // SearXNG answers 403 for formats not enabled in its settings; only json is enabled here.
      if (format !== "json") {
        return sendText(res, 403, "text/html; charset=utf-8", "<!doctype html><title>403 Forbidden</title>");
      }
      const q = url.searchParams.get("q") ?? "";
      const pageno = Number(url.searchParams.get("pageno") ?? "1");
      const results = pageno > 1 ? [] : search(q);
      sendText(
        res,
        200,
        "application/json",
        JSON.stringify({
          query: q,
          number_of_results: results.length,
          results,
          answers: [],
          corrections: [],
          infoboxes: [],
          suggestions: [],
          unresponsive_engines: [],
        }),
      );
    },
    // Drips one byte every 500 ms for ~30 s (tunable: ?seconds=&interval=) to test fetch timeouts.
    "/slow": (url, _req, res) => {
      const seconds = Number(url.searchParams.get("seconds") ?? "30");
      const interval = Number(url.searchParams.get("interval") ?? "500");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.write("<!doctype html><html><body><p>");
      const end = Date.now() + seconds * 1000;
      const t = setInterval(() => {
        if (Date.now() >= end) {
          clearInterval(t);
          timers.delete(t);
          res.end("</p></body></html>");
        } else res.write(".");
      }, interval);
      timers.add(t);
      res.on("close", () => {
        clearInterval(t);
        timers.delete(t);
      });
    },
    // ~20 MB of HTML (tunable: ?mb=), chunked without content-length so size caps must count bytes.
    "/big": (url, _req, res) => {
      const total = Number(url.searchParams.get("mb") ?? "20") * 1024 * 1024;
      const block = Buffer.from(
        `<p>${"Lorem ipsum dolor sit amet, heat pump filler text. ".repeat(300)}</p>\n`,
      );
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.write("<!doctype html><html><body>");
      let sent = 0;
      const pump = () => {
        while (sent < total && !res.destroyed) {
          sent += block.length;
          if (!res.write(block)) return void res.once("drain", pump);
        }
        if (!res.destroyed) res.end("</body></html>");
      };
      pump();
    },
    "/redirect": (url, _req, res) => {
      const to = url.searchParams.get("to");
      if (!to) return sendText(res, 400, "text/plain", "missing ?to=");
      res.writeHead(302, { location: to, "content-length": 0 });
      res.end();
    },
    "/binary": (_url, _req, res) => {
      const buf = Buffer.alloc(4096);
      for (let i = 0; i < buf.length; i++) buf[i] = (i * 31 + 7) & 0xff;
      sendText(res, 200, "application/octet-stream", buf);
    },
    [HOSTILE_PAGE_PATH]: (_url, _req, res) => {
      sendText(res, 200, "text/html; charset=utf-8", renderHostilePage(base));
    },
    // Every path the fixture served, for e2e specs that assert the app fetched nothing.
    [REQUEST_LOG_PATH]: (_url, _req, res) => {
      sendText(res, 200, "application/json", JSON.stringify({ paths: requests.map((r) => r.path) }));
    },
    [COLLECTED_PATH]: (_url, _req, res) => {
      sendText(res, 200, "application/json", JSON.stringify({ requests: collector.requests }));
    },
    "/plain.txt": (_url, _req, res) => {
      sendText(
        res,
        200,
        "text/plain; charset=utf-8",
        "Heat pump field notes\n\nA plain text document: seasonal performance factor 3.1 measured over one winter.\n",
      );
    },
  };

  const server = http.createServer((req, res) => {
    const record: { path: string; at: number; endedAt?: number } = { path: req.url ?? "/", at: Date.now() };
    requests.push(record);
    res.on("close", () => {
      record.endedAt = Date.now();
    });
    if (!opts.latencyMs) return serve(req, res);
    const timer = setTimeout(() => {
      timers.delete(timer);
      serve(req, res);
    }, opts.latencyMs);
    timers.add(timer);
  });

  function serve(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", base || "http://127.0.0.1");
    const page = /^\/pages\/([\w-]+)\.html$/.exec(url.pathname);
    if (page) {
      const article = edits.current(page[1]);
      if (article) return sendText(res, 200, "text/html; charset=utf-8", renderArticle(article));
      if (article === null) {
        return sendText(
          res,
          410,
          "text/html; charset=utf-8",
          "<!doctype html><title>410 Gone</title><h1>Gone</h1>",
        );
      }
    }
    if (edits.handle(url.pathname, req, res)) return;
    // Any method, any query: the collector records whatever reaches it.
    if (url.pathname === COLLECTOR_PATH || url.pathname.startsWith(`${COLLECTOR_PATH}/`)) {
      return collector.handle(req, res);
    }
    const handler = handlers[url.pathname];
    if (handler && (req.method === "GET" || req.method === "HEAD")) return handler(url, req, res);
    sendText(
      res,
      404,
      "text/html; charset=utf-8",
      "<!doctype html><title>404 Not Found</title><h1>Not Found</h1>",
    );
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    port,
    requests,
    pages: ARTICLES.map((a) => ({
      slug: a.slug,
      url: `${base}/pages/${a.slug}.html`,
      title: a.title,
      text: a.paragraphs.join("\n\n"),
    })),
    hostilePageUrl: `${base}${HOSTILE_PAGE_PATH}`,
    collected: collector.requests,
    edits,
    close() {
      for (const t of timers) clearInterval(t);
      timers.clear();
      return new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
