import type { ReportWords } from "./types.ts";

export const de: ReportWords = {
  sources: "Quellen",
  readInFull: "vollständig gelesen",
  partial: "Unvollständiger Bericht.",
  writtenEarly: (researched, planned, n) =>
    `Die Recherche wurde auf Wunsch vorzeitig beendet; dieser Bericht beruht auf ${researched} von ${planned} ${planned === 1 ? "Recherchethema" : "Recherchethemen"} und den bis dahin gesammelten ${n} ${n === 1 ? "Quelle" : "Quellen"}.`,
  emptyReport:
    "Das Schreibmodell hat einen leeren Bericht geliefert; dieser Bericht zeigt daher die Rechercheergebnisse, wie sie gesammelt wurden.",
  stoppedBeforeReport: (reason) =>
    `Der Durchlauf endete, bevor der Bericht geschrieben werden konnte (${reason}). Dies sind die Rechercheergebnisse, wie sie gesammelt wurden.`,
  phaseNames: {
    clarification: "das Klären der Frage",
    brief: "das Schreiben des Rechercheauftrags",
    supervision: "die Recherche",
    synthesis: "das Schreiben des Berichts",
    knowledge: "das Speichern der Erkenntnisse",
  },
  failure: {
    run_time_limit: (v) => `der Durchlauf hat sein Zeitlimit von ${v.seconds} s überschritten`,
    phase_time_limit: (v) => `${v.phase} hat das Zeitlimit von ${v.seconds} s überschritten`,
    budget_exhausted: (v) => `das Budget ist aufgebraucht: ${v.said}`,
    storage_quota: (v) => `es kann kein weiterer Seitentext gespeichert werden: ${v.said}`,
    run_error: (v) => `ein Fehler: ${v.said}`,
  },
  noFindings: "Es konnten keine Rechercheergebnisse aufgenommen werden.",
  contextOverflow: (leftOut) =>
    "Das Recherchematerial passte auch nach dreifacher Kürzung nicht in das Kontextfenster des Schreibmodells; dieser Bericht zeigt daher die Rechercheergebnisse, wie sie gesammelt wurden, statt einer geschriebenen Synthese" +
    (leftOut > 0
      ? `; ${leftOut} ${leftOut === 1 ? "Thema mit niedrigerer Priorität fehlt" : "Themen mit niedrigerer Priorität fehlen"}.`
      : "."),
  questions: "Fragen zu diesem Bericht",
  furtherSources: "Weitere Quellen der Antworten",
};
