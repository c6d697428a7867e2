/**
 * Source quality tiers by domain class — a cheap prior, not a verdict on a page. The tiers feed
 * coverage (quality distribution) and are shown beside every source.
 *
 *   HIGH     government, military, education and intergovernmental domains (.gov, .mil, .edu,
 *            .int and their country forms such as gov.uk, ac.uk, edu.au); scholarly journals,
 *            publishers, preprint servers and indexes (nature.com, science.org, nih.gov, arxiv.org,
 *            …); standards bodies (iso.org, ietf.org, w3.org, …); statistical and international
 *            organisations (oecd.org, worldbank.org, europa.eu, …)
 *   MEDIUM   encyclopedias, wire services and major newspapers and magazines, official language and
 *            platform documentation, and the user's own document library (library://)
 *   LOW      social media, forums, Q&A sites, open blogging platforms and content farms
 *            (reddit, x.com, facebook, quora, medium.com, pinterest, tiktok, …)
 *   UNKNOWN  everything else (most company sites and personal blogs), and unparseable URLs
 *
 * A listed domain matches itself and its subdomains (ncbi.nlm.nih.gov matches nih.gov).
 *
 * The page's own signals (page-signals.ts) then adjust the domain's tier: a paper with a DOI or a
 * standards document is HIGH and official documentation or primary data at least MEDIUM, unless
 * the domain is a LOW platform; a forum or Q&A thread is LOW unless the domain is HIGH. So a
 * documentation site or a journal missing from the lists is no longer UNKNOWN.
 */

import { domainOf } from "../../../search/url.ts";
import type { QualityTier } from "../../vocabulary.ts";
import { type PageFacts, pageSignal } from "./page-signals.ts";

const HIGH_DOMAINS = [
  // journals, publishers, preprints, scholarly indexes
  "nature.com",
  "science.org",
  "sciencedirect.com",
  "springer.com",
  "wiley.com",
  "cell.com",
  "thelancet.com",
  "nejm.org",
  "bmj.com",
  "jamanetwork.com",
  "plos.org",
  "pnas.org",
  "frontiersin.org",
  "mdpi.com",
  "tandfonline.com",
  "sagepub.com",
  "academic.oup.com",
  "cambridge.org",
  "annualreviews.org",
  "cochranelibrary.com",
  "jstor.org",
  "doi.org",
  "arxiv.org",
  "biorxiv.org",
  "medrxiv.org",
  "ssrn.com",
  "acm.org",
  "ieee.org",
  "aps.org",
  "acs.org",
  "iop.org",
  "nih.gov",
  // standards bodies
  "iso.org",
  "ietf.org",
  "rfc-editor.org",
  "w3.org",
  "whatwg.org",
  "unicode.org",
  "ecma-international.org",
  "itu.int",
  // international and statistical organisations
  "who.int",
  "un.org",
  "oecd.org",
  "worldbank.org",
  "imf.org",
  "europa.eu",
  "ipcc.ch",
];

const MEDIUM_DOMAINS = [
  // encyclopedias and reference
  "wikipedia.org",
  "britannica.com",
  // wire services, newspapers, magazines
  "reuters.com",
  "apnews.com",
  "afp.com",
  "bbc.co.uk",
  "bbc.com",
  "npr.org",
  "nytimes.com",
  "washingtonpost.com",
  "wsj.com",
  "ft.com",
  "economist.com",
  "bloomberg.com",
  "theguardian.com",
  "lemonde.fr",
  "spiegel.de",
  "aljazeera.com",
  "theatlantic.com",
  "newyorker.com",
  "scientificamerican.com",
  "newscientist.com",
  "nationalgeographic.com",
  "technologyreview.com",
  "arstechnica.com",
  "wired.com",
  "lwn.net",
  // official documentation
  "developer.mozilla.org",
  "docs.python.org",
  "nodejs.org",
  "postgresql.org",
  "learn.microsoft.com",
  "developer.apple.com",
  "cloud.google.com",
  "docs.aws.amazon.com",
];

const LOW_DOMAINS = [
  // social media and video
  "reddit.com",
  "x.com",
  "twitter.com",
  "facebook.com",
  "instagram.com",
  "tiktok.com",
  "pinterest.com",
  "linkedin.com",
  "youtube.com",
  "threads.net",
  "tumblr.com",
  // forums and Q&A
  "quora.com",
  "stackexchange.com",
  "stackoverflow.com",
  "answers.com",
  "4chan.org",
  // open blogging platforms and content farms
  "medium.com",
  "substack.com",
  "blogspot.com",
  "wordpress.com",
  "ehow.com",
  "wikihow.com",
  "hubpages.com",
  "buzzfeed.com",
];

// Public-sector and academic suffixes, generic (.gov) and country forms (gov.uk, ac.jp, edu.au).
const HIGH_SUFFIX = /(^|\.)(gov|mil|edu|int)(\.[a-z]{2})?$|(^|\.)(ac|gouv|gob|govt)\.[a-z]{2}$/;

function matches(host: string, list: readonly string[]): boolean {
  return list.some((d) => host === d || host.endsWith(`.${d}`));
}

const RANK: Record<QualityTier, number> = { UNKNOWN: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };
const atLeast = (tier: QualityTier, floor: QualityTier) => (RANK[tier] >= RANK[floor] ? tier : floor);

/** The tier for a source: its domain class, adjusted by what the page shows (see above). */
export function classifySourceQuality(url: string, page?: PageFacts): QualityTier {
  const tier = classifyDomain(url);
  if (tier === "LOW" || domainOf(url) === "library") return tier;
  switch (pageSignal(url, page)) {
    case "paper":
    case "standard":
      return "HIGH";
    case "docs":
    case "data":
      return atLeast(tier, "MEDIUM");
    case "forum":
      return tier === "HIGH" ? tier : "LOW";
    default:
      return tier;
  }
}

/** The tier by domain class alone (the table above). */
function classifyDomain(url: string): QualityTier {
  const host = domainOf(url);
  if (host === "library") return "MEDIUM";
  if (!host) return "UNKNOWN";
  // Explicit lists first: a LOW platform on a high suffix would be a listing mistake, not a class.
  if (matches(host, LOW_DOMAINS)) return "LOW";
  if (matches(host, HIGH_DOMAINS) || HIGH_SUFFIX.test(host)) return "HIGH";
  if (matches(host, MEDIUM_DOMAINS)) return "MEDIUM";
  return "UNKNOWN";
}
