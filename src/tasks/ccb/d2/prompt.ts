import { chainRender, chainSystemPrompt, strictSchema } from '../variants.js';
import type { D2Instance } from './generate.js';
import { D2_OPERATIONS, D2_OUTPUT_FORMAT } from './release-text.js';

/** The release's `SYSTEM_PROMPT` (symbolic_tracking_main.py), byte for byte. */
export const D2_SYSTEM_PROMPT = `You are an abstract register-file engine tracking 7 variables.\n\n${D2_OPERATIONS}\n\n${D2_OUTPUT_FORMAT}`;

const VERBOSE = 'After EACH step, explicitly restate all 7 variables.';

const PAPER_UNIQUENESS =
  'ASSIGNMENT-UNIQUENESS CONSTRAINT: the 7 variables always hold 7 distinct digits 0-9. A state in which two variables hold the same digit is an illegal re-assignment.';

const SLOTS = [
  'REGISTER SLOTS: the variables occupy fixed slots A=P01, B=P02, C=P03, D=P04, E=P05, F=P06, G=P07.',
  'Each operation as a slot map ("P01<-P07" means the new P01 holds the old P07 value; unlisted slots keep their value):',
  '- SHIFT_RIGHT        : P01<-P07, P02<-P01, P03<-P02, P04<-P03, P05<-P04, P06<-P05, P07<-P06',
  '- SHIFT_LEFT         : P01<-P02, P02<-P03, P03<-P04, P04<-P05, P05<-P06, P06<-P07, P07<-P01',
  '- SWAP_A_G           : P01<-P07, P07<-P01',
  '- SET_D_TO_A_PLUS_B  : P04<-(P01 + P02) mod 10',
  '- SET_C_TO_G_MINUS_E : P03<-(P07 - P05) mod 10',
  'Write every state with the variable letters A-G as shown in the output format.',
].join('\n');

const MAPPING = [
  "EXPLICIT UPDATE MAPPING (X' = new value of X, computed only from old values; unlisted variables are unchanged):",
  "- SHIFT_RIGHT        : A'=G, B'=A, C'=B, D'=C, E'=D, F'=E, G'=F",
  "- SHIFT_LEFT         : A'=B, B'=C, C'=D, D'=E, E'=F, F'=G, G'=A",
  "- SWAP_A_G           : A'=G, G'=A",
  "- SET_D_TO_A_PLUS_B  : D'=(A + B) mod 10",
  "- SET_C_TO_G_MINUS_E : C'=(G - E + 10) mod 10",
].join('\n');

const SCHEMA = strictSchema('all 7 variables as [A=a, B=b, C=c, D=d, E=e, F=f, G=g]');

const SECTIONS = { verbose: VERBOSE, schema: SCHEMA, slots: SLOTS, mapping: MAPPING };

export const systemPromptD2 = chainSystemPrompt(D2_SYSTEM_PROMPT, PAPER_UNIQUENESS, SECTIONS);

export const renderD2 = chainRender<D2Instance>(systemPromptD2);
