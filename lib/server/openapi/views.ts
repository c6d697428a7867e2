/**
 * What the routes answer, as zod schemas for the OpenAPI document: the run view (runs/view-model.ts), run
 * summaries, sources, shares, knowledge items, library documents, invitations and health. Request
 * schemas are not here: they are the ones the handlers validate with, imported where they live.
 *
 * @internal to lib/server/openapi/: a helper of its actions, not an action; adapters do not import it.
 */
import { z } from "zod";
import {
  citationSupports,
  degradationSteps,
  directiveOrigins,
  directivePriorities,
  directiveStatuses,
  directiveTypes,
  knowledgeCategories,
  knowledgeOrigins,
  knowledgeStatuses,
  qualityTiers,
  roundDecisions,
  runPhases,
  runStatuses,
} from "../../research/ui.ts";
import { becauseSchema } from "../runs/because-schema.ts";
import { jsonObject, nullableTimestamp, timestamp, uuid } from "./common.ts";

const runStatus = z.enum(runStatuses).meta({ id: "RunStatus" });
const runPhase = z.enum(runPhases).nullable().meta({ description: "null before the run starts." });

export const createdRunSchema = z
  .object({
    id: uuid("The new run."),
    status: runStatus,
    queuePosition: z.int().nullable().meta({ description: "Place in your queue (1 = next) while it waits." }),
    warnings: z.array(z.string()).meta({
      description:
        "Models of the run's chains left out because their provider is not configured on this server (empty when none).",
    }),
  })
  .meta({ id: "CreatedRun" });

export const runSummarySchema = z
  .object({
    id: uuid("The run."),
    question: z.string(),
    status: runStatus,
    phase: runPhase,
    createdAt: timestamp(),
    startedAt: nullableTimestamp(),
    finishedAt: nullableTimestamp(),
    sourceCount: z.int(),
    parentId: uuid("The run this one researches deeper.").nullable(),
    versionOf: uuid("The first run of the report this run is a later version of.").nullable(),
  })
  .meta({ id: "RunSummary" });

/** Another run of the same owner, as a link: a parent or a child. */
const runLinkSchema = z
  .object({ id: uuid("The run."), question: z.string(), status: runStatus, createdAt: timestamp() })
  .meta({ id: "RunLink" });

const directiveSchema = z
  .object({
    id: uuid("The directive."),
    round: z.int(),
    topic: z.string(),
    title: z.string().meta({ description: "One plain line of at most 80 characters, for lists." }),
    perspective: z.string().nullable(),
    evidenceNeeded: z.string().nullable(),
    priority: z.enum(directivePriorities),
    origin: z.enum(directiveOrigins),
    type: z.enum(directiveTypes),
    rationale: z.string().nullable(),
    status: z.enum(directiveStatuses),
    error: z.string().nullable(),
    stopReason: z.string().nullable().meta({ description: "Why its researcher stopped; null until then." }),
  })
  .meta({ id: "Directive" });

const roundSchema = z
  .object({
    round: z.int(),
    method: z.string(),
    directivesGenerated: z.int(),
    directivesExecuted: z.int(),
    newSources: z.int(),
    think: z.string().nullable(),
    assessment: jsonObject("The supervisor's assessment.").nullable(),
    coverageBefore: jsonObject("Coverage per directive before the round.").nullable(),
    coverageAfter: jsonObject("Coverage per directive after the round.").nullable(),
    decision: z.enum(roundDecisions).nullable(),
    reason: z.string().nullable(),
    because: becauseSchema.nullable().optional().meta({
      description:
        "`reason` as a code with its values (`said`: a model's or provider's own words), for saying it in another language; null before codes.",
    }),
  })
  .meta({ id: "SupervisionRound" });

const quality = z.enum(qualityTiers).meta({ id: "QualityTier" });

const sourceSummarySchema = z
  .object({
    id: uuid("The source."),
    url: z.string(),
    title: z.string(),
    domain: z.string(),
    provider: z.string(),
    quality,
    readInFull: z
      .boolean()
      .meta({ description: "The page's own text was fetched, not only a search snippet." }),
    recheck: z.enum(["pending", "unchanged", "changed", "gone"]).nullable().meta({
      description:
        "In a refreshed version (POST /api/runs/:id/refresh), a source the previous version cited, fetched again: its text `unchanged`, `changed` (the new text is kept) or `gone`; `pending` until the job re-checks it; null otherwise.",
    }),
  })
  .meta({ id: "SourceSummary" });

export const citationSchema = z
  .object({
    number: z.int().meta({ description: "The [N] in the report." }),
    sourceId: uuid("The cited source."),
    sentence: z.string(),
    support: z.enum(citationSupports),
    reason: z.string().nullable().optional(),
    because: becauseSchema.nullable(),
  })
  .meta({ id: "Citation" });

const degradationSchema = z
  .object({
    step: z.enum(degradationSteps),
    round: z.int().nullable().meta({ description: "The supervision round, for the coverage assessment." }),
    model: z.string().nullable().meta({ description: "The model that failed (`provider:model`)." }),
    error: z.string().meta({ description: "What the provider said, or why its answer was unusable." }),
    cause: z
      .object({
        kind: z.enum(["unusable", "context", "refused", "failed"]),
        status: z.int().nullable().optional(),
        attempts: z.int().optional(),
      })
      .optional()
      .meta({
        description:
          "What the model did: no usable answer after `attempts` tries, input too long for its context window, refused with HTTP `status`, or failed (with `status` when there was one). Absent on records made before it was kept.",
      }),
    notice: z.string().meta({ description: "The same in one plain English sentence." }),
    at: timestamp(),
  })
  .meta({
    id: "Degradation",
    description: "A step that fell back instead of doing its work (one per step and round).",
  });

export const runViewSchema = z
  .object({
    id: uuid("The run."),
    question: z.string(),
    status: runStatus,
    queuePosition: z.int().nullable(),
    phase: runPhase,
    settings: jsonObject("The run settings as given."),
    brief: z.string().nullable(),
    clarificationQuestion: z.string().nullable(),
    directives: z.array(directiveSchema),
    coverage: jsonObject("The latest coverage per directive.").nullable(),
    supervisionHistory: z.array(roundSchema),
    sources: z.array(sourceSummarySchema),
    report: z.string().nullable().meta({ description: "The report's Markdown, once written." }),
    reportPartial: z.boolean(),
    citationStats: jsonObject("Counts per verdict, marked, removed, corrected links.").nullable(),
    citations: z.array(citationSchema),
    usage: jsonObject("Tokens, calls and cost: in total, by role and by model."),
    degradations: z.array(degradationSchema),
    error: z.string().nullable().meta({ description: "Why the run failed, in plain words." }),
    errorBecause: becauseSchema
      .nullable()
      .meta({ description: "Why the run failed, as a code with values (the UI says it in its language)." }),
    importedFrom: z
      .object({
        originalId: z.string(),
        exportedAt: z.string(),
        schemaVersion: z.int(),
        importedAt: z.string(),
      })
      .nullable()
      .meta({ description: "Set on a run opened from a bundle: its verdicts are the original instance's." }),
    // Lineage (research deeper, versions).
    parentId: uuid("The run this one researches deeper (POST /api/runs/:id/deeper).").nullable(),
    parent: runLinkSchema.nullable().meta({ description: "That run, for a link; null without one." }),
    versionOf: uuid("The first run of the report this run is a later version of.").nullable(),
    children: z
      .array(runLinkSchema)
      .meta({ description: "The runs that research this one deeper, oldest first." }),
    createdAt: timestamp(),
    finishedAt: nullableTimestamp(),
    finishRequested: z.boolean(),
    lastEventSeq: z.int().meta({
      description:
        "The sequence number of the last event this view includes: a client that follows the events applies the later ones.",
    }),
    findings: z.record(z.string(), z.string()).meta({ description: "Compressed findings by directive id." }),
  })
  .meta({ id: "Run", description: "A run with everything it has gathered so far." });

export const sourceViewSchema = z
  .object({
    id: uuid("The source."),
    runId: uuid("Its run."),
    url: z.string(),
    title: z.string(),
    domain: z.string(),
    provider: z.string(),
    quality,
    snippet: z.string().nullable(),
    readInFull: z.boolean(),
    contentChars: z.int(),
    fetchedAt: nullableTimestamp(),
    citations: z.array(
      citationSchema.extend({ passage: z.string().nullable().meta({ description: "The text judged." }) }),
    ),
  })
  .meta({ id: "Source" });

export const runStateSchema = z.object({
  status: z.string().meta({ description: "e.g. queued, cancelled, finishing." }),
});

export const shareSchema = z
  .object({
    id: uuid("The share."),
    label: z.string().nullable(),
    createdAt: timestamp(),
    expiresAt: nullableTimestamp(),
    revokedAt: nullableTimestamp(),
    allowDownload: z.boolean().meta({ description: "Readers of the link may download the report as a PDF." }),
    // Shared question thread (issue 31)
    includeThread: z.boolean().meta({
      description:
        "The link also shows the run's follow-up questions and answers (no passage or reason of a private library source).",
    }),
  })
  .meta({ id: "Share" });

export const createdShareSchema = shareSchema
  .omit({ revokedAt: true })
  .extend({ url: z.string().meta({ description: "The /share/:token link, shown only in this answer." }) })
  .meta({ id: "CreatedShare" });

export const knowledgeItemSchema = z
  .object({
    id: uuid("The item."),
    runId: z.uuid().nullable(),
    category: z.enum(knowledgeCategories),
    content: z.string(),
    sourceIds: z.array(z.string()),
    confidence: z.number(),
    needsReview: z.boolean(),
    status: z.enum(knowledgeStatuses),
    origin: z.enum(knowledgeOrigins),
    shared: z.boolean(),
    extractionKey: z.string().nullable(),
    history: z.array(z.object({ by: z.string(), at: z.string(), previousContent: z.string() }).loose()),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    reviewedAt: nullableTimestamp(),
    own: z.boolean().meta({ description: "false for an item an admin shared with everyone: read-only." }),
  })
  .meta({ id: "KnowledgeItem" });

export const libraryDocumentSchema = z
  .object({
    id: uuid("The document."),
    title: z.string(),
    sourceUrl: z.string().nullable(),
    mimeType: z.string(),
    chars: z.int().meta({ description: "Length of the stored text." }),
    createdAt: timestamp(),
    shared: z.boolean(),
    own: z.boolean(),
  })
  .meta({ id: "LibraryDocument" });

export const libraryDocumentFullSchema = libraryDocumentSchema
  .extend({ content: z.string().meta({ description: "The stored text." }) })
  .meta({ id: "LibraryDocumentWithText" });

/** The multipart form of POST /api/library (read with FormData in library/ingest.ts). */
export const libraryUploadSchema = z.object({
  file: z
    .string()
    .meta({ description: "PDF, HTML, text or Markdown.", contentMediaType: "application/octet-stream" }),
  title: z.string().optional(),
});

export const invitationSchema = z
  .object({
    id: uuid("The invitation."),
    email: z.string().nullable(),
    createdAt: timestamp(),
    expiresAt: timestamp(),
    state: z.enum(["open", "used", "revoked", "expired"]),
  })
  .meta({ id: "Invitation" });

export const healthSchema = z
  .object({ status: z.enum(["ok", "degraded"]), database: z.enum(["ok", "unreachable"]) })
  .meta({ id: "Health" });
