import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@careloop/shared-router';
import { logoutOnServer } from './auth';
import { clearAllDrafts } from './drafts';
import { useSession } from './session';

/** Logout: revoke on the server, forget the token, cached data and unsaved drafts, go to /. */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    const { role, token, logout } = useSession.getState();
    if (role && token) void logoutOnServer(role, token);
    logout();
    // An explicit logout leaves nothing of a patient behind (an idle logoff keeps drafts to restore).
    clearAllDrafts();
    queryClient.clear();
    navigate('/');
  };
}
