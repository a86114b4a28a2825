import type { ChangePasswordBody, DeleteAccountBody, SignInDto, UpdateProfileBody } from '../../../contract/account';
import type { Preferences, UpdatePreferencesBody } from '../../../contract/auth';
import { Paths } from '../../../contract/routes';
import { SignInProviderPaths, type LinkedIdentityDto } from '../../../contract/signInProviders';
import { apiSlice, type NoArg, type NoContent } from '../../api/apiSlice';
import { userUpdated } from '../auth/authSlice';
import { mapUser, readTemporaryAvatar, withTemporaryAvatar, type User } from '../auth';

// The account settings calls (docs/settings.md). A profile change updates the signed-in user in
// the store as soon as the server accepts it, so the header shows the new name at once.
export const settingsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    updateProfile: build.mutation<User, UpdateProfileBody>({
      query: (body) => ({ url: Paths.me, method: 'PUT', body }),
      transformResponse: (raw: unknown) => mapUser(raw),
      extraOptions: { maxAttempts: 1 },
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          // The temporary avatar is read now, not when the answer arrived: the page may have dropped it since.
          const user = withTemporaryAvatar(data, readTemporaryAvatar());
          // Only the signed-in user is updated: an upsert of getMe would land a moment later and
          // put back a temporary avatar the page has dropped meanwhile.
          dispatch(userUpdated(user));
        } catch {
          // The form shows the error; the header keeps the name it had.
        }
      },
    }),
    getPreferences: build.query<Preferences, NoArg>({
      query: () => Paths.preferences,
      providesTags: ['Preferences'],
    }),
    updatePreferences: build.mutation<Preferences, UpdatePreferencesBody>({
      query: (body) => ({ url: Paths.preferences, method: 'PUT', body }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          void dispatch(settingsApi.util.upsertQueryData('getPreferences', undefined, data));
        } catch {
          // The form shows the error; the cached preferences stay as they were.
        }
      },
    }),
    changePassword: build.mutation<{ message: string; signedOutOthers: number }, ChangePasswordBody>({
      query: (body) => ({ url: Paths.password, method: 'POST', body }),
      extraOptions: { maxAttempts: 1 },
      invalidatesTags: (_result, error) => (error ? [] : ['SignIns']),
    }),
    getIdentities: build.query<LinkedIdentityDto[], NoArg>({
      query: () => SignInProviderPaths.identities,
      transformResponse: (response: { identities: LinkedIdentityDto[] }) => response.identities,
      providesTags: ['Identities'],
    }),
    /** Starts linking: the browser then goes to the provider (and comes back to returnPath). */
    linkIdentity: build.mutation<{ authorizationUrl: string }, { returnPath: string }>({
      query: (body) => ({ url: SignInProviderPaths.identities, method: 'POST', body }),
      extraOptions: { maxAttempts: 1 },
    }),
    deleteAccount: build.mutation<NoContent, DeleteAccountBody>({
      query: (body) => ({ url: Paths.me, method: 'DELETE', body }),
      extraOptions: { maxAttempts: 1 },
    }),
    getSignIns: build.query<SignInDto[], NoArg>({
      query: () => Paths.signIns,
      transformResponse: (response: { signIns: SignInDto[] }) => response.signIns,
      providesTags: ['SignIns'],
    }),
    revokeSignIn: build.mutation<NoContent, string>({
      query: (id) => ({ url: Paths.signIn(id), method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['SignIns']),
    }),
    revokeOtherSignIns: build.mutation<{ revoked: number }, NoArg>({
      query: () => ({ url: Paths.revokeOtherSignIns, method: 'POST' }),
      invalidatesTags: (_result, error) => (error ? [] : ['SignIns']),
    }),
  }),
});

export const {
  useUpdateProfileMutation,
  useGetPreferencesQuery,
  useUpdatePreferencesMutation,
  useChangePasswordMutation,
  useGetIdentitiesQuery,
  useLinkIdentityMutation,
  useDeleteAccountMutation,
  useGetSignInsQuery,
  useRevokeSignInMutation,
  useRevokeOtherSignInsMutation,
} = settingsApi;
