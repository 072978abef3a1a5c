// What each instantiation stage's model is told, in Proctor's words, asking for UFO's own reply fields: the
// chooser {"<file>": "<why>"}; prefill {Observation, Thought, New_task, Actions_plan: [{Step, Subtask,
// ControlLabel, ControlText, Function, Args}]} with the numbered control list really read from the document
// (upstream defect 4 sent none) and only the functions the executor runs (defect 5); filter {judge, thought, type}.
import type { ChatMessage } from '../../agents/chat';
import { APP_NAMES } from './app-names';
import { controlListText, type Control } from './controls';
import { functionHelp } from './functions';
import { KEY_NAMES_HELP } from './keys';
import type { OfficeApp } from './task';

/** `images`: file name → data URL of its screenshot, shown labelled by that file name. */
export function choosePrompt(
  task: string,
  app: OfficeApp,
  descriptions: Record<string, string>,
  images: Record<string, string> = {},
): ChatMessage[] {
  const list = Object.entries(descriptions)
    .map(([file, text]) => `- ${JSON.stringify(file)}: ${text}`)
    .join('\n');
  const text = `THE REQUEST\n${task}\n\nTHE TEMPLATES\n${list}`;
  const shown = Object.keys(descriptions).filter((f) => images[f]);
  const content: ChatMessage['content'] = shown.length
    ? [
        { type: 'text', text },
        ...shown.flatMap((f) => [
          { type: 'text' as const, text: `Screenshot of ${JSON.stringify(f)}:` },
          { type: 'image_url' as const, image_url: { url: images[f], detail: 'low' as const } },
        ]),
      ]
    : text;
  return [
    {
      role: 'system',
      content:
        `You choose the template document on which a user's request about ${APP_NAMES[app]} will be carried out. ` +
        'Pick the one template whose content lets the request be done most directly. ' +
        'Answer with one JSON object and nothing else: {"<template file name>": "<why it fits>"}, the file name exactly as listed.',
    },
    { role: 'user', content } as ChatMessage,
  ];
}

export interface PrefillPromptInput {
  task: string;
  steps: string[];
  app: OfficeApp;
  controls: Control[];
  /** The screenshot of the opened document, as a data URL. */
  screenshot?: string;
}

export function prefillPrompt(input: PrefillPromptInput): ChatMessage[] {
  const system =
    `You turn an abstract request about ${APP_NAMES[input.app]} into a concrete task on the document that is open, and a plan of steps on the window's real controls. ` +
    'You see the screenshot and the numbered list of the controls on screen ([label] type (role) "text"). ' +
    'Rewrite the request so that it names what is really in this document (New_task), then plan it with these functions only:\n' +
    functionHelp() +
    `\nKey syntax of keyboard_input: ${KEY_NAMES_HELP}; other characters are typed as they are.\n` +
    'Each step acts on one control: ControlLabel is its [label] (a string) and ControlText its text exactly as listed; a step on the whole window ' +
    '(keyboard_input to the focused place) has ControlLabel null and ControlText "". In a spreadsheet, cells are controls named by their address (A1); ' +
    'empty cells are not listed: reach them with keys from a listed cell.\n' +
    'Answer with one JSON object and nothing else: {"Observation": str, "Thought": str, "New_task": str, "Actions_plan": [{"Step": 1, "Subtask": str, ' +
    '"ControlLabel": str|null, "ControlText": str, "Function": str, "Args": {}}, ...]}. Actions_plan is a JSON array, never a string.';
  const text =
    `THE REQUEST\n${input.task}\n\nREFERENCE STEPS\n${input.steps.map((s, i) => `${i + 1}. ${s}`).join('\n') || '(none)'}\n\n` +
    `THE CONTROLS ON SCREEN (${input.controls.length})\n${controlListText(input.controls) || '(none were read)'}`;
  const content: ChatMessage['content'] = input.screenshot
    ? [
        { type: 'text', text },
        { type: 'text', text: 'THE SCREENSHOT OF THE OPENED DOCUMENT' },
        { type: 'image_url', image_url: { url: input.screenshot, detail: 'high' } },
      ]
    : text;
  return [{ role: 'system', content: system }, { role: 'user', content } as ChatMessage];
}

export function filterPrompt(request: string, app: OfficeApp): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `You decide whether a request can be carried out in ${APP_NAMES[app]} alone on the open document, as a concrete task with a checkable outcome. ` +
        'Types of unusable requests: "Non_task" (subjective or vague, no checkable outcome), "App_involve" (needs another application), ' +
        '"Env" (depends on a version, account or the environment), "Others". ' +
        'Answer with one JSON object and nothing else: {"judge": true|false, "thought": "<why>", "type": "None"|"Non_task"|"App_involve"|"Env"|"Others"} ' +
        '(type "None" when judge is true).',
    },
    { role: 'user', content: `THE REQUEST\n${request}` },
  ];
}

/** The text of the messages (for the stage logs). */
export function promptText(messages: ChatMessage[]): string {
  return messages
    .map((m) => {
      const c = m.content;
      const body =
        typeof c === 'string'
          ? c
          : Array.isArray(c)
            ? c.map((p) => ('text' in p ? p.text : '[image]')).join('\n')
            : '';
      return `== ${m.role}\n${body}`;
    })
    .join('\n\n');
}
