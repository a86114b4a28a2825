import type { LoginBody, LoginResult, RegisterBody, UserDto } from '../../../contract/auth';
import { Paths } from '../../../contract/routes';
import { apiSlice, type NoArg } from '../../api/apiSlice';
import { mapUser, type User } from './userMapping';

/** What POST /auth/register answers: the new account, and tokens when the server signs it in. */
export interface RegisterResult {
  user?: UserDto;
  accessToken?: string;
  refreshToken?: string;
  message?: string;
}

export interface ResetPasswordBody {
  token: string;
  password: string;
  passwordConfirmation: string;
}

export const authApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResult, LoginBody>({
      query: (body) => ({ url: Paths.login, method: 'POST', body, authenticate: false }),
    }),
    register: build.mutation<RegisterResult, RegisterBody>({
      query: (body) => ({ url: Paths.register, method: 'POST', body, authenticate: false }),
    }),
    /** Revokes the refresh token on the server. Tried once: the session ends locally anyway. */
    logout: build.mutation<unknown, { refreshToken?: string } | NoArg>({
      query: (body) => ({ url: Paths.logout, method: 'POST', body: body ?? {} }),
      extraOptions: { maxAttempts: 1 },
    }),
    getMe: build.query<User, NoArg>({
      query: () => Paths.me,
      transformResponse: (raw: unknown) => mapUser(raw),
      providesTags: ['Me'],
    }),
    forgotPassword: build.mutation<{ message: string }, { email: string }>({
      query: (body) => ({ url: Paths.forgotPassword, method: 'POST', body, authenticate: false }),
    }),
    resetPassword: build.mutation<{ message: string }, ResetPasswordBody>({
      query: (body) => ({ url: Paths.resetPassword, method: 'POST', body, authenticate: false }),
    }),
    /** Opens the link mailed at sign-up (the token is the credential: no sign-in needed). */
    verifyEmail: build.mutation<{ message: string }, { token: string }>({
      query: (body) => ({ url: Paths.verifyEmail, method: 'POST', body, authenticate: false }),
      extraOptions: { maxAttempts: 1 },
    }),
    /** Mails the verification link again to the signed-in account. */
    resendVerificationEmail: build.mutation<{ message: string }, undefined>({
      query: () => ({ url: Paths.verificationEmail, method: 'POST', body: {} }),
      extraOptions: { maxAttempts: 1 },
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useLogoutMutation,
  useGetMeQuery,
  useLazyGetMeQuery,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useVerifyEmailMutation,
  useResendVerificationEmailMutation,
} = authApi;
