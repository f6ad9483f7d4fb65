import { createGlobalStyle } from 'styled-components';

export const theme = {
  color: {
    primary: '#0b6e69',
    primaryDark: '#064e4a',
    primarySoft: '#e3f4f2',
    accent: '#1d4ed8',
    text: '#1f2933',
    muted: '#52606d',
    border: '#d9e2ec',
    surface: '#ffffff',
    page: '#f5f8fa',
    danger: '#b91c1c',
    success: '#15803d',
  },
  radius: '10px',
  shadow: '0 1px 3px rgba(15, 23, 42, 0.08), 0 4px 12px rgba(15, 23, 42, 0.05)',
  wide: '900px',
} as const;
export type Theme = typeof theme;

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html, body { margin: 0; padding: 0; }
  body {
    font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
    color: ${theme.color.text};
    background: ${theme.color.page};
    line-height: 1.5;
  }
  a { color: ${theme.color.primary}; }
  :focus-visible { outline: 3px solid ${theme.color.accent}; outline-offset: 2px; }
`;
