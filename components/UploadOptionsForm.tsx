import type { UploadDefaults } from '../lib/settings';
import type { ExpireUnit, Mode, Variant } from '../lib/upload';

const MODES: { value: Mode; label: string; hint: string }[] = [
  {
    value: 'client',
    label: 'Encrypt in my browser',
    hint: 'The key stays in the link; the server never sees it.',
  },
  { value: 'server', label: 'Let the server encrypt', hint: 'The server makes and may keep the key.' },
  { value: 'none', label: 'No encryption', hint: 'Anyone with the link can read the file.' },
];

const UNITS: { value: ExpireUnit; label: string }[] = [
  { value: 'never', label: 'Never' },
  { value: 'view', label: 'After downloads' },
  { value: 'minute', label: 'Minutes' },
  { value: 'hour', label: 'Hours' },
  { value: 'day', label: 'Days' },
  { value: 'month', label: 'Months' },
  { value: 'year', label: 'Years' },
];

export interface UploadChoices extends UploadDefaults {
  variant: Variant;
}

/** The per-upload choices: variant, mode and the options each variant has. */
export function UploadOptionsForm({
  value,
  onChange,
  showVariant = true,
  showDoNotTrack = true,
}: {
  value: UploadChoices;
  onChange: (v: UploadChoices) => void;
  showVariant?: boolean;
  /** Do-not-track belongs to the server (its header goes with every request to it), so only the settings show it. */
  showDoNotTrack?: boolean;
}) {
  const set = <K extends keyof UploadChoices>(k: K, v: UploadChoices[K]) => onChange({ ...value, [k]: v });
  return (
    <div>
      {showVariant && (
        <>
          <label for="variant">API variant</label>
          <select
            id="variant"
            value={value.variant}
            onChange={(e) => set('variant', e.currentTarget.value as Variant)}
          >
            <option value="current">Current (api address, optional account)</option>
            <option value="legacy">Legacy (?sub=api, expiry)</option>
          </select>
        </>
      )}
      <fieldset>
        <legend>Encryption</legend>
        {MODES.map((m) => (
          <label class="inline" key={m.value}>
            <input
              type="radio"
              name="mode"
              value={m.value}
              checked={value.mode === m.value}
              onChange={() => set('mode', m.value)}
            />
            <span>
              {m.label} <span class="muted small">— {m.hint}</span>
            </span>
          </label>
        ))}
        {value.mode === 'server' && (
          <label class="inline">
            <input
              type="checkbox"
              checked={value.saveKey}
              onChange={(e) => set('saveKey', e.currentTarget.checked)}
            />
            Server keeps the key (downloads are decrypted for anyone with the plain link)
          </label>
        )}
      </fieldset>
      <label class="inline">
        <input
          id="gen-deletion-key"
          type="checkbox"
          checked={value.genDeletionKey}
          onChange={(e) => set('genDeletionKey', e.currentTarget.checked)}
        />
        Make a deletion link
      </label>
      {value.variant === 'legacy' && (
        <div class="row">
          <label class="inline" for="expire-unit">
            Expires
          </label>
          <select
            id="expire-unit"
            value={value.expireUnit}
            onChange={(e) => set('expireUnit', e.currentTarget.value as ExpireUnit)}
            style={{ width: 'auto' }}
          >
            {UNITS.map((u) => (
              <option key={u.value} value={u.value}>
                {u.label}
              </option>
            ))}
          </select>
          {value.expireUnit !== 'never' && (
            <>
              <label class="sr-only" for="expire-length">
                How many
              </label>
              <input
                id="expire-length"
                type="number"
                min={1}
                value={value.expireLength}
                onInput={(e) => set('expireLength', Math.max(1, Number(e.currentTarget.value) || 1))}
              />
            </>
          )}
        </div>
      )}
      {showDoNotTrack && (
        <label class="inline">
          <input
            id="dnt"
            type="checkbox"
            checked={value.doNotTrack}
            onChange={(e) => set('doNotTrack', e.currentTarget.checked)}
          />
          Ask this server not to track me (sends <span class="mono">DNT: 1</span> with every request to it)
        </label>
      )}
    </div>
  );
}
