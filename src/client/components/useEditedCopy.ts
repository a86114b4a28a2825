import { useState } from 'react';

// Form fields start from stored values that may arrive or change after the first render (a reload
// straight onto the page, a save, another tab, the back button). Instead of copying the stored value
// into state from an effect (a second render, and a moment showing the old text), the edit is kept
// with the value it started from: when the stored value changes, the field shows the new one.

type Update<T> = T | ((current: T) => T);

/**
 * A copy of `source` (as `toValue` makes it) that the user edits. A different `source` (compared
 * with Object.is: by value for strings and numbers, by identity for objects) starts the copy over.
 */
export function useEditedCopy<S, T>(source: S, toValue: (source: S) => T): [T, (update: Update<T>) => void] {
  const [edit, setEdit] = useState<{ source: S; value: T } | null>(null);
  const value = edit !== null && Object.is(edit.source, source) ? edit.value : toValue(source);
  const setValue = (update: Update<T>) =>
    setEdit((current) => {
      const base = current !== null && Object.is(current.source, source) ? current.value : toValue(source);
      return { source, value: typeof update === 'function' ? (update as (current: T) => T)(base) : update };
    });
  return [value, setValue];
}

/** A text field's edited copy of a stored string. */
export function useEditedText(source: string): [string, (update: Update<string>) => void] {
  return useEditedCopy(source, (text) => text);
}
