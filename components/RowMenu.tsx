// A menu button for a row's less frequent actions (WAI-ARIA menu button): Enter, Space or Down
// opens it on the first item, Up on the last; Up, Down, Home and End move; Escape closes it and
// puts focus back on the button; Tab or a click elsewhere closes it. Choosing an item closes it
// first, and focus goes back to the button unless the item moves it on (a confirmation).
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface MenuItem {
  text: string;
  onSelect: () => void;
  danger?: boolean;
}

export function RowMenu({ text, label, items }: { text: string; label: string; items: MenuItem[] }) {
  const [focused, setFocused] = useState<number>(-1);
  const open = focused >= 0;
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();

  useLayoutEffect(() => {
    if (open) menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[focused]?.focus();
  }, [open, focused]);

  // A click anywhere outside closes the menu (focus stays where the click put it).
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && e.target !== button.current) setFocused(-1);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const close = () => {
    setFocused(-1);
    button.current?.focus();
  };

  function onMenuKey(e: KeyboardEvent) {
    const last = items.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: focused === last ? 0 : focused + 1,
      ArrowUp: focused === 0 ? last : focused - 1,
      Home: 0,
      End: last,
    };
    if (e.key in moves) {
      e.preventDefault();
      setFocused(moves[e.key]!);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Tab') {
      setFocused(-1);
    }
  }

  return (
    <div class="menu-button">
      <button
        ref={button}
        id={`${id}-button`}
        type="button"
        class="secondary"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? setFocused(-1) : setFocused(0))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setFocused(e.key === 'ArrowDown' ? 0 : items.length - 1);
          }
        }}
      >
        {text} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div ref={menu} id={`${id}-menu`} role="menu" aria-labelledby={`${id}-button`} onKeyDown={onMenuKey}>
          {items.map((item, i) => (
            <button
              key={item.text}
              type="button"
              role="menuitem"
              tabIndex={i === focused ? 0 : -1}
              class={item.danger ? 'danger' : undefined}
              onClick={() => {
                close();
                item.onSelect();
              }}
            >
              {item.text}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
