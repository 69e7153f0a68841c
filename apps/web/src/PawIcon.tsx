/** The app's mark: a paw, drawn inline (no emoji font or image request needed). */
export function PawIcon() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" className="paw">
      <g fill="currentColor">
        <ellipse cx="5.5" cy="10" rx="2.1" ry="2.7" />
        <ellipse cx="9.6" cy="5.6" rx="2.1" ry="2.7" />
        <ellipse cx="14.4" cy="5.6" rx="2.1" ry="2.7" />
        <ellipse cx="18.5" cy="10" rx="2.1" ry="2.7" />
        <path d="M12 11.2c-3.1 0-6.2 3.6-6.2 6.4 0 1.8 1.4 2.9 3.1 2.9 1.3 0 2-.6 3.1-.6s1.8.6 3.1.6c1.7 0 3.1-1.1 3.1-2.9 0-2.8-3.1-6.4-6.2-6.4z" />
      </g>
    </svg>
  );
}
