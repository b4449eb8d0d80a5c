import type { FinishReason, ReadingProfile } from './task.js';

/**
 * Is the answer a family found the model's FINAL answer? Shared by every family (docs/outputs.md, "The final
 * answer"): a grader reads an answer, then asks what the text after it says. Pure and linear in the text length.
 *
 * - cut off: the output stopped at the token limit (finish reason `length`), or, with no finish reason, it ends
 *   mid-sentence, and words follow the answer: the model was still writing and could have revised it. At
 *   `length`, an answer that ends the output without a closing delimiter (a bare integer, a D3 answer without
 *   brackets) may itself be incomplete.
 * - retracted: the text after the answer says it was wrong ("I made an error…", "the correct final state is…"):
 *   the model's final answer is in prose, which no family reads.
 * - hedged: the answer is followed on its line by a second one (`ANSWER: X (or Y, if …)`), or it is one of several
 *   different answers the text offers as alternatives ("here are the possible final states:", "either sequence
 *   should work"): no committed answer.
 * - answered more than once at the token limit: an answer repeated or changed again and again until the output
 *   was cut at `length` had not settled (cut-off).
 * - ends mid-list: nothing but a list separator (`,` `+`) follows the answer at the end of the output: a
 *   running count cut mid-enumeration, not a final answer (cut-off).
 * Cues are read in the languages reasoning models mix (English, Chinese, Spanish, French, German, Japanese, Russian,
 * Portuguese): RECONSIDERING and ALTERNATIVES below.
 */
export type Finality =
  | { kind: 'final' }
  | { kind: 'cut-off'; issue: string }
  | { kind: 'retracted'; issue: string }
  | { kind: 'hedged'; issue: string };

/** Where a family's final answer ends in the text it graded. */
export interface AnswerEnd {
  /** Index just after the answer. */
  end: number;
  /** The answer ends with its own closing delimiter (`]]`, `]`, `}`): nothing appended could have extended it. */
  delimited: boolean;
  /** How many answers the text gives in all, restatements included (absent: one). */
  answers?: number;
  /** An earlier answer in the text differs from this one (a draft, a correction, an alternative). */
  differsFromEarlier?: boolean;
}

const FINAL: Finality = { kind: 'final' };

/** A letter or a digit: text after the answer that says something. */
const WORDS = /[\p{L}\p{N}]/u;

/**
 * Conservative "mid-sentence": the output's last visible character is a letter, a digit, or a character that
 * cannot end a sentence (`,` `;` `:` `-` `(` `[` `=` `+`), or the output ends with an ellipsis. Closing
 * punctuation (`.` `!` `?` `。`), closing brackets, quotes, code fences and Markdown emphasis end a sentence.
 */
export function endsMidSentence(text: string): boolean {
  const trimmed = text.trimEnd();
  if (trimmed === '') return false;
  if (trimmed.endsWith('...') || trimmed.endsWith('…')) return true;
  const last = trimmed.slice(-1);
  return /[\p{L}\p{N},;:\-([=+，、；：（]/u.test(last);
}

/**
 * Words that start reconsidering an answer: what a model writes after a draft answer it is about to check, in the
 * languages reasoning models mix. Words of alphabetic scripts must stand alone (no letter or digit on either side);
 * Chinese and Japanese cues are matched anywhere (those scripts do not space words).
 */
const ENGLISH_CUES = [
  'wait',
  'hmm+',
  'let me',
  "let's",
  'double[- ]check',
  're-?check',
  're-?verify',
  'verify',
  're-?count',
  'reconsider',
  're-?examine',
  'actually',
  'but',
  'however',
  'hold on',
];
const OTHER_CUES = [
  // Spanish
  'espera',
  'esperen',
  'déjame',
  'dejame',
  'verifiquemos',
  'verificar',
  'comprobemos',
  'comprobar',
  'revisemos',
  'reconsideremos',
  'en realidad',
  'pero',
  'sin embargo',
  // French
  'attends',
  'attendez',
  'laisse-moi',
  'laissez-moi',
  'vérifions',
  'vérifier',
  'revérifions',
  'en fait',
  'mais',
  'cependant',
  'reconsidérons',
  // German
  'warte',
  'moment mal',
  'lass mich',
  'lassen sie mich',
  'überprüfen',
  'prüfen wir',
  'nochmal',
  'noch einmal',
  'eigentlich',
  'aber',
  'jedoch',
  // Russian
  'подожди',
  'погоди',
  'постой',
  'давай(?:те)? проверим',
  'проверим',
  'перепроверим',
  'на самом деле',
  'но',
  'однако',
  'хм+',
  // Portuguese
  'espere',
  'deixe-me',
  'deixa eu',
  'vamos verificar',
  'verifiquemos',
  'conferir',
  'na verdade',
  'mas',
  'porém',
  'no entanto',
];
const CJK_RECONSIDERING = [
  // Chinese (simplified and traditional)
  '等等',
  '等一下',
  '让我',
  '讓我',
  '检查',
  '檢查',
  '验证',
  '驗證',
  '重新',
  '不对',
  '不對',
  '其实',
  '其實',
  '但是',
  '不过',
  '不過',
  '再想',
  // Japanese
  '待って',
  'ちょっと待',
  '確認',
  '検証',
  '見直',
  'もう一度',
  'いや',
  'でも',
  '実は',
  'しかし',
];
/** The English cues alone: the rule before issue 40, kept for the 'authors' reading profile. */
const RECONSIDERING_ENGLISH = new RegExp(`(?<![\\p{L}\\p{N}])(?:${ENGLISH_CUES.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
const RECONSIDERING = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...ENGLISH_CUES, ...OTHER_CUES].join('|')})(?![\\p{L}\\p{N}])|${CJK_RECONSIDERING.join('|')}`,
  'iu',
);

/**
 * Phrases that offer several answers as alternatives rather than commit to one: only read when the text holds
 * another answer that differs from the final one.
 */
const ALTERNATIVES =
  /\b(?:possible (?:final )?(?:answers?|states?|solutions?|results?|sequences?|grids?)|(?:either|any) (?:one |of (?:these|them|the (?:above|following)) )?(?:sequences?|solutions?|answers?|options?|of (?:these|them|the (?:above|following)))(?: (?:should|would|will|could|can|might))? (?:work|be (?:correct|valid|right|fine|acceptable))|(?:both|all) (?:of )?(?:these|them|the (?:above|following)|answers|solutions|sequences)(?: are| would be| should be)? (?:correct|valid|work|acceptable)|one of (?:these|the following)|alternatively|could be either|or alternatively)\b|可能的(?:答案|结果|状态)|两种都|兩種都|任一|いずれか|どちらでも|(?<![\p{L}])(?:posibles respuestas|cualquiera de|ambas|soit|l'une ou l'autre|entweder|beide|либо|любой из|qualquer um|ambas)(?![\p{L}])/iu;
/**
 * Was the model still writing after its answer when the output stopped? At finish reason `length`: whenever words
 * follow the answer. With no finish reason (replay, a provider that does not report one), only on clear signs:
 * the words after the answer start on a later line, they reconsider it ("Wait, let me double-check…") and the
 * output ends mid-sentence. A note on the answer's line or a finished sentence after it is not a cut-off.
 */
function cutOffAfter(text: string, tail: string, finishReason: FinishReason | undefined, cues: RegExp): boolean {
  if (finishReason === 'length') return true;
  if (finishReason != null) return false;
  const firstWords = tail.search(WORDS);
  const newLine = tail.indexOf('\n');
  return newLine >= 0 && newLine < firstWords && cues.test(tail) && endsMidSentence(text);
}

/**
 * Phrases that take an answer back. Only clear retractions count: a note ("every step was checked") or a
 * confirmation ("let me double-check: yes") leaves the answer final.
 */
const RETRACTION =
  /\bI (?:made|have made|'ve made) (?:an? )?(?:error|mistake)s?\b|\bI was wrong\b|\b(?:that|this|it|the (?:above|previous|last) (?:answer|state|result|list))(?: answer)? (?:is|was|'s) (?:wrong|incorrect|not (?:right|correct))\b|\bthat's (?:wrong|incorrect|not right)\b|\bthe correct (?:final )?(?:answer|state|grid|registers?|result|count|solution|moves?|move list|list|assignment)\s+(?:is|should be|would be)\b|\b(?:answer|state|grid|result|count) should (?:actually )?(?:be|have been)\b|\bcorrection\s*:|\bscratch that\b|\bon second thought\b|\blet me (?:redo|fix|correct)\b/i;

/** A revision in prose: a cue, then a new answer stated (`Actually, the final state is …`, `Wait, the answer is …`). */
const REVISION =
  /\b(?:wait|actually|hmm+|no|oops)[,.!]?\s+(?:so\s+)?(?:the\s+)?(?:final\s+|correct\s+|real\s+|right\s+|true\s+)?(?:answer|state|grid|registers?|result|count|solution|moves?|set|pairs)\s+(?:is|are|should be|would be|must be)\b/i;

/** A second answer offered on the answer's line: `(or …`, `, or …`, `— alternatively …`. */
const HEDGE = /^[\s,;)*`\]}.]*(?:\(|[-–—]\s*)?\s*(?:or|alternatively|otherwise|possibly|perhaps|maybe)\b/i;
/** The same with a separator instead of a word: `/ …`, `| …`, `vs …`. */
const HEDGE_SEPARATOR = /^[\s,;)*`\]}.]*(?:[/|]|vs\.?(?=\s))/i;

/** What a second answer holds: a bracket, a brace, a digit or a pair token (`AB:F`); a remark holds none. */
const ANSWER_LIKE = /[[{\p{N}]|\b[A-Z]{2}\s*:\s*[A-Z]\b/u;

/**
 * The verdict on the text after an answer ending at `answer.end`; `answer` null when the family found none
 * (then there is nothing to take back). A hedge is looked for on the rest of the answer's line, or on the first
 * non-blank line after it when the answer ends its line.
 */
export function finalityOf(
  text: string,
  answer: AnswerEnd | null,
  finishReason: FinishReason | undefined,
  reading: ReadingProfile = 'final',
): Finality {
  // The 'authors' profile keeps the rules as they were before issue 40 (English cues; no rule on repeated answers,
  // alternatives, separators, revisions in prose or a trailing list separator), so a reproduction grades as it did.
  const authors = reading === 'authors';
  if (answer === null) return FINAL;
  const tail = text.slice(answer.end);
  const says = WORDS.test(tail);
  if (says && cutOffAfter(text, tail, finishReason, authors ? RECONSIDERING_ENGLISH : RECONSIDERING)) {
    return {
      kind: 'cut-off',
      issue:
        finishReason === 'length'
          ? 'cut off at the token limit while still writing after the answer: it may not be the final one'
          : 'the output ends mid-sentence while reconsidering the answer (no finish reason): it may not be the final one',
    };
  }
  if (!says && !answer.delimited && finishReason === 'length') {
    return { kind: 'cut-off', issue: 'cut off at the token limit at the end of the answer: it may be incomplete' };
  }
  if (!authors && finishReason === 'length' && (answer.answers ?? 1) > 1) {
    return {
      kind: 'cut-off',
      issue: `cut off at the token limit after ${answer.answers} answers: the answer had not settled`,
    };
  }
  if (!authors && !says && /[,+，、]\s*$/.test(tail)) {
    return { kind: 'cut-off', issue: 'the output ends mid-list after the answer: a running value, not a final one' };
  }
  const lineStart = tail.search(/\S/);
  const lineEnd = lineStart < 0 ? -1 : tail.indexOf('\n', lineStart);
  const firstLine = lineStart < 0 ? '' : tail.slice(lineStart, lineEnd < 0 ? tail.length : lineEnd);
  if ((HEDGE.test(firstLine) || (!authors && HEDGE_SEPARATOR.test(firstLine))) && ANSWER_LIKE.test(firstLine)) {
    return { kind: 'hedged', issue: 'the answer is hedged with another one on its line: no single final answer' };
  }
  if (!authors && answer.differsFromEarlier === true) {
    const offered = ALTERNATIVES.exec(text);
    if (offered !== null) {
      return {
        kind: 'hedged',
        issue: `several different answers are offered as alternatives ('${offered[0]}'): no committed answer`,
      };
    }
  }
  const retraction = RETRACTION.exec(tail) ?? (authors ? null : REVISION.exec(tail));
  if (retraction !== null) {
    return {
      kind: 'retracted',
      issue: `the answer is taken back after it ('${retraction[0]}'): the final answer is not in an accepted form`,
    };
  }
  return FINAL;
}
