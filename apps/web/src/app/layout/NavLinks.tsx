import { NavLink } from 'react-router';
import { useLogin } from '../../lib/auth';
import classes from './layout.module.css';
import { navItems } from './navItems';

/** Links of the navigation bar; NavLink marks the current one with aria-current="page". */
export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const login = useLogin();
  return navItems(login).map((item) => (
    <NavLink key={item.to} to={item.to} end={item.end} className={classes.link} onClick={onNavigate}>
      {item.label}
    </NavLink>
  ));
}
