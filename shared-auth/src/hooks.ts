import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { logoutOnServer } from './auth';
import { useSession } from './session';

/** Logout: revoke on the server, forget the token and cached data, go to /. */
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
