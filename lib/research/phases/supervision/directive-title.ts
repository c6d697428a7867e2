/**
 * A directive's short title: what the run page shows in one line. The planner is asked for one; a
 * title it left out, made too long or wrote with markup is cleaned and cut here, so every stored
 * title is plain text of at most `maxTitleChars` characters, ending on a word boundary when cut.
 */

export const maxTitleChars = 80;

/** Markdown and HTML a model may write into a title, removed (the words they wrap are kept). */
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+/g, "")
    .replace(/(^|\s)#{1,6}\s+/g, "$1")
    .replace(/(\*\*|__|\*|_|~~)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/^[\s>*+-]+/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** `text` cut to at most `max` characters at the last word boundary, with an ellipsis when cut. */
export function cutAtWord(text: string, max = maxTitleChars): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const lastSpace = room.lastIndexOf(" ");
  // A single word longer than a third of the room is cut inside it rather than leaving a stub.
  const cut = lastSpace > max / 3 ? room.slice(0, lastSpace) : room;
  return `${cut.replace(/[\s,;:.–—-]+$/, "")}…`;
}

/** The title to store and show: the planner's when it has one, else the topic's first sentence. */
export function directiveTitle(title: string | null | undefined, topic: string): string {
  const given = plain(title ?? "");
  if (given) return cutAtWord(given);
  const text = plain(topic);
  const sentence = text.match(/^(.+?[.?!])(\s|$)/)?.[1] ?? text;
  return cutAtWord(sentence.replace(/[.]$/, ""));
}
