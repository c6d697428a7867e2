import { handle, readJson } from "@/lib/http";
import { runIdOrNotFound } from "@/lib/server/ids";
import { currentOwner } from "@/lib/server/owner";
import { askQuestion } from "@/lib/server/questions/ask-question";
import { listQuestions } from "@/lib/server/questions/list-questions";
import { askQuestionRequestSchema } from "@/lib/server/questions/schemas";
import { enforceRateLimit } from "@/lib/server/rate-limits";
import { serverRuntime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/** The run's follow-up questions and their answers, oldest first. */
export const GET = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/questions">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const owner = await currentOwner(req, "read");
  return Response.json(await listQuestions(await serverRuntime(), id, owner));
});

/** Ask about the report: 202 {id}; the answer arrives as question.* events and in GET. */
export const POST = handle(async (req: Request, ctx: RouteContext<"/api/runs/[id]/questions">) => {
  const id = runIdOrNotFound((await ctx.params).id);
  const owner = await currentOwner(req, "research");
  const input = await readJson(req, askQuestionRequestSchema);
  const rt = await serverRuntime();
  await enforceRateLimit(rt, req, "actions");
  const { id: questionId } = await askQuestion(rt, id, owner, input);
  return Response.json({ id: questionId }, { status: 202 });
});
