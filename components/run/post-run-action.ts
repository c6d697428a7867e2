"use client";

import { useActionState, useEffect, useRef } from "react";
import type { ActionState } from "@/lib/server/actions/action-state";

const idleState: ActionState = { status: "idle" };

type FormAction = (prev: ActionState, form: FormData) => Promise<ActionState>;

/**
 * A run form's server action through useActionState (so the form posts before hydration too),
 * telling the page to re-read the run once an action went through.
 */
export function useRunAction(action: FormAction, onChanged: () => void) {
  const [state, formAction, pending] = useActionState(action, idleState);
  // The latest onChanged (a new function each render); only a new state triggers a re-read.
  const changed = useRef(onChanged);
  changed.current = onChanged;
  useEffect(() => {
    if (state.status === "ok") changed.current();
  }, [state]);
  return { state, formAction, pending };
}
