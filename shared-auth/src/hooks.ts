import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@careloop/shared-router';
import { logoutOnServer } from './auth';
import { useSession } from './session';

/** Logout: revoke on the server, forget the token and cached data, go to /. Drafts are kept by the api, not here. */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return () => {
    const { role, token, logout } = useSession.getState();
    if (role && token) void logoutOnServer(role, token);
    logout();
    queryClient.clear();
    navigate('/');
  };
}
