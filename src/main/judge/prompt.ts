// The judge's prompts (of our own writing): the contract of UFO's EvaluationAgent — decompose the request into
// sub-goals, judge each from the evidence, aggregate — with the evidence weighted towards the screen.

export const actionFunctions = `The agent acts with these functions (pyautogui form; the computer_13 form is the same set as JSON dicts):
- click(x, y, clicks, button) / doubleClick / rightClick — mouse clicks at screen pixels x, y
- moveTo(x, y), dragTo(x, y), mouseDown(), mouseUp() — pointer movement and dragging
- scroll(amount), hscroll(amount) — scrolling (positive = up / right)
- write(text) / typewrite(text) — typing text; press(key), hotkey(k1, k2, …), keyDown(key), keyUp(key) — keys
- WAIT — look again; DONE — the agent claims the task is complete; FAIL — the agent claims it is impossible.`;

export function judgeSystemPrompt(options: {
  narrative: boolean;
  /** What the agent did, one sentence (default: a Linux desktop with keyboard and mouse). */
  setting?: string;
  /** The action functions shown (default: `actionFunctions`). */
  functions?: string;
}): string {
  return `You are an evaluator of computer-use agents. ${options.setting ?? 'An agent was given a request by a user and operated a Linux desktop with keyboard and mouse to fulfil it.'} You decide whether the request was fulfilled.

${options.functions ?? actionFunctions}

HOW TO JUDGE
1. Split the request into its sub-goals: the separate things that must be true at the end for the request to be fulfilled (a file saved with the right content, a setting changed, a value entered, …).
2. For each sub-goal, decide from the evidence: "yes" (it is clearly achieved), "no" (it is clearly not achieved, or undone later), or "unsure" (the evidence does not show it either way).
3. Aggregate: "complete" is "yes" only if every sub-goal is "yes"; "no" if any sub-goal is "no"; otherwise "unsure".
The final screenshot shows the state of the machine at the end: it outweighs everything else. ${
    options.narrative
      ? "The agent's own words (its thoughts and claims) are shown too; they are claims, not evidence — agents often say they succeeded when they did not. Believe only what the screenshots and the actions show."
      : "You are shown the agent's actions and the screenshots only, not its own words; judge from what they show."
  }
Do not reward effort or plausible intentions; judge the outcome. If the task was impossible and the agent rightly answered FAIL without doing harm, the request counts as fulfilled.

HOW TO ANSWER
Answer with one JSON object and nothing else:
{"reason": "<a few sentences: what the evidence shows for each sub-goal>", "sub_scores": [{"name": "<sub-goal>", "evaluation": "yes" | "no" | "unsure"}], "complete": "yes" | "no" | "unsure"}`;
}

/** The prompt for judging one step ("round") of a trajectory. */
export function judgeRoundSystemPrompt(options: { narrative: boolean }): string {
  return `You are an evaluator of computer-use agents. An agent was given a request by a user and operated a Linux desktop with keyboard and mouse, step by step. You judge ONE step: was it a right step towards fulfilling the request, and did it have the intended effect?

${actionFunctions}

HOW TO JUDGE
Compare the screen before and after the step. Split what the step should achieve into its parts (sub_scores); "complete" is "yes" when the step was right and worked, "no" when it was wrong, harmful or had no effect it needed, "unsure" when the screenshots do not show it. ${
    options.narrative
      ? "The agent's own words are claims, not evidence."
      : "You are shown the agent's actions and the screenshots only."
  }

HOW TO ANSWER
Answer with one JSON object and nothing else:
{"reason": "<what the step did and whether it helped>", "sub_scores": [{"name": "<part>", "evaluation": "yes" | "no" | "unsure"}], "complete": "yes" | "no" | "unsure"}`;
}

export function retryPrompt(problem: string): string {
  return `Your answer could not be read: ${problem}. Answer again with exactly one JSON object of the form {"reason": "...", "sub_scores": [{"name": "...", "evaluation": "yes"}], "complete": "yes"} — evaluations and complete are "yes", "no" or "unsure".`;
}
