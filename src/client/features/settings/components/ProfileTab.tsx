import { lazy, Suspense, useState, type SyntheticEvent } from 'react';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Divider from '@mui/material/Divider';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorMessage, fieldErrors, type FieldErrors } from '../../../api/apiError';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useToast } from '../../../components/toast';
import { useEditedText } from '../../../components/useEditedCopy';
import { selectCurrentUser } from '../../auth/authSlice';
import { setTemporaryAvatar } from '../../auth';
import { DeleteAccountCard } from './DeleteAccountCard';
import type { AvatarChoice } from '../avatarChoices';
import { useUpdateProfileMutation } from '../settingsApi';
// DiceBear's styles weigh ~500 kB: they load with the picker, not with every settings tab.
const AvatarPicker = lazy(() => import('./AvatarPicker').then((module) => ({ default: module.AvatarPicker })));

/** Profile: name (saved to the server, the header follows at once), email, avatar. */
export function ProfileTab() {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const user = useAppSelector(selectCurrentUser);
  const [updateProfile, { isLoading }] = useUpdateProfileMutation();
  // The profile may arrive after the first render (a reload straight onto this page).
  const [firstName, setFirstName] = useEditedText(user?.firstName ?? '');
  const [lastName, setLastName] = useEditedText(user?.lastName ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});

  const unchanged = firstName.trim() === (user?.firstName ?? '') && lastName.trim() === (user?.lastName ?? '');
  const saveName = async (event: SyntheticEvent) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!firstName.trim()) local.firstName = 'Required';
    if (!lastName.trim()) local.lastName = 'Required';
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await updateProfile({ firstName: firstName.trim(), lastName: lastName.trim() }).unwrap();
      toast({ title: 'Profile updated', description: 'Your name has been saved.' });
    } catch (caught) {
      setErrors(fieldErrors(caught));
      toast({ title: 'Profile not saved', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  // The pick shows at once as the local temporary avatar (SPEC §3); once the server has it, the
  // temporary one is dropped so another device's later choice is not hidden here.
  const saveAvatar = async (choice: AvatarChoice) => {
    await dispatch(setTemporaryAvatar(choice.url));
    try {
      await updateProfile({ avatarUrl: choice.url }).unwrap();
      await dispatch(setTemporaryAvatar(null));
      toast({ title: 'Avatar updated', description: 'Your new avatar is saved to your profile.' });
    } catch (caught) {
      toast({ title: 'Avatar kept on this device only', description: errorMessage(caught), variant: 'destructive' });
    }
  };

  const name = user?.fullName || 'User';
  return (
    <Stack spacing={3}>
      <Card>
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5} sx={{ mb: 3, alignItems: { sm: 'center' } }}>
            <Avatar
              src={user?.avatarUrl}
              alt={name}
              slotProps={{ img: { referrerPolicy: user?.avatarIsExternal ? 'no-referrer' : undefined } }}
              sx={{ width: 72, height: 72 }}
            />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="h6" component="h2" noWrap>
                {name}
              </Typography>
              <Typography color="text.secondary" noWrap>
                {user?.email}
              </Typography>
            </Box>
          </Stack>
          <Box component="form" noValidate onSubmit={(event) => void saveName(event)} aria-label="Your name">
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
              <TextField
                label="First name"
                name="firstName"
                value={firstName}
                onChange={(e) => setFirstName(e.target.value)}
                error={Boolean(errors.firstName)}
                helperText={errors.firstName}
                fullWidth
                autoComplete="given-name"
              />
              <TextField
                label="Last name"
                name="lastName"
                value={lastName}
                onChange={(e) => setLastName(e.target.value)}
                error={Boolean(errors.lastName)}
                helperText={errors.lastName}
                fullWidth
                autoComplete="family-name"
              />
            </Stack>
            <TextField
              label="Email"
              value={user?.email ?? ''}
              fullWidth
              disabled
              helperText="Your sign-in email"
              sx={{ mb: 2 }}
            />
            <Button type="submit" variant="contained" disabled={unchanged || isLoading}>
              {isLoading ? 'Saving…' : 'Save name'}
            </Button>
          </Box>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ mb: 0.5 }}>
            Avatar
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            Drawn on this device: no image is fetched from or sent to an avatar service.
          </Typography>
          <Divider sx={{ mb: 2 }} />
          <Suspense fallback={<Skeleton variant="rounded" height={140} aria-label="Loading avatars" />}>
            <AvatarPicker onSave={saveAvatar} />
          </Suspense>
        </CardContent>
      </Card>
      <DeleteAccountCard />
    </Stack>
  );
}
