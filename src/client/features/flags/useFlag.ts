import { DEFAULT_FLAGS, isFlagOn, resolveFlags, type Flags } from '../../../contract/flags';
import { useGetConfigQuery } from './configApi';

/**
 * The flags in force: the server's (which include TOOLSCOPE_FLAGS) once loaded, the defaults of
 * contract/flags.ts until then or if the config cannot be fetched.
 */
export function useFlags(): Flags {
  const { data } = useGetConfigQuery();
  return data?.flags ? resolveFlags(data.flags) : DEFAULT_FLAGS;
}

/** Whether a flag is on. Unknown names are off (SPEC §2). */
export function useFlag(name: string): boolean {
  return isFlagOn(useFlags(), name);
}
