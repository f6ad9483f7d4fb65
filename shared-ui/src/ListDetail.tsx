import styled from 'styled-components';
import { theme } from './theme';

/** A list beside the detail of its selected item (records, prescriptions); stacked when narrow. */
export const ListDetail = styled.div`
  display: grid;
  gap: 1rem;
  grid-template-columns: minmax(220px, 320px) 1fr;
  @media (max-width: 800px) {
    grid-template-columns: 1fr;
  }
`;

/** The selectable list of a ListDetail: one button per item, the current one aria-current. */
export const PickList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  button {
    width: 100%;
    text-align: left;
    padding: 0.7rem 0.8rem;
    border: 0;
    border-radius: 8px;
    background: none;
    font: inherit;
    cursor: pointer;
  }
  button[aria-current='true'],
  button:hover {
    background: ${theme.color.primarySoft};
  }
  small {
    display: block;
    color: ${theme.color.muted};
  }
`;
