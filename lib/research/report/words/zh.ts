import type { ReportWords } from "./types.ts";

export const zh: ReportWords = {
  sources: "来源",
  readInFull: "已全文阅读",
  partial: "不完整的报告。",
  writtenEarly: (researched, planned, n) =>
    `研究应所有者要求提前结束；本报告基于 ${planned} 个研究主题中的 ${researched} 个，以及截至当时收集的 ${n} 个来源。`,
  emptyReport: "写作模型返回了空报告，因此本报告按收集到的原样呈现研究结果。",
  stoppedBeforeReport: (reason) =>
    `运行在撰写报告之前停止（${reason}）。以下是按收集到的原样呈现的研究结果。`,
  phaseNames: {
    clarification: "澄清问题",
    brief: "撰写研究简报",
    supervision: "研究",
    synthesis: "撰写报告",
    knowledge: "保存所学内容",
  },
  failure: {
    run_time_limit: (v) => `运行超过了 ${v.seconds} 秒的时间限制`,
    phase_time_limit: (v) => `${v.phase}超过了 ${v.seconds} 秒的时间限制`,
    budget_exhausted: (v) => `预算已用完：${v.said}`,
    storage_quota: (v) => `无法再存储网页文本：${v.said}`,
    run_error: (v) => `出现错误：${v.said}`,
  },
  noFindings: "没有可纳入的研究结果。",
  contextOverflow: (leftOut) =>
    `研究材料在压缩三次后仍超出写作模型的上下文窗口，因此本报告按收集到的原样呈现研究结果，而非撰写的综述${leftOut > 0 ? `；省略了 ${leftOut} 个优先级较低的主题。` : "。"}`,
  questions: "关于本报告的问题",
  furtherSources: "回答引用的其他来源",
};
