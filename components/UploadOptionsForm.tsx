import { type MessageKey, t } from '../lib/i18n';
import type { UploadDefaults } from '../lib/settings';
import type { ExpireUnit, Mode, Variant } from '../lib/upload';

// Labels are looked up when shown (messages are connected when the page starts, after this module).
const MODES: { value: Mode; label: MessageKey; hint: MessageKey }[] = [
  { value: 'client', label: 'modeClient', hint: 'modeClientHint' },
  { value: 'server', label: 'modeServer', hint: 'modeServerHint' },
  { value: 'none', label: 'modeNone', hint: 'modeNoneHint' },
];

const UNITS: { value: ExpireUnit; label: MessageKey }[] = [
  { value: 'never', label: 'expireNever' },
  { value: 'view', label: 'expireViews' },
  { value: 'minute', label: 'expireMinutes' },
  { value: 'hour', label: 'expireHours' },
  { value: 'day', label: 'expireDays' },
  { value: 'month', label: 'expireMonths' },
  { value: 'year', label: 'expireYears' },
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
          <label for="variant">{t('apiVariant')}</label>
          <select
            id="variant"
            value={value.variant}
            onChange={(e) => set('variant', e.currentTarget.value as Variant)}
          >
            <option value="current">{t('variantCurrent')}</option>
            <option value="legacy">{t('variantLegacy')}</option>
          </select>
        </>
      )}
      <fieldset>
        <legend>{t('encryption')}</legend>
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
              {t(m.label)} <span class="muted small">— {t(m.hint)}</span>
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
            {t('serverKeepsKey')}
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
        {t('makeDeletionLink')}
      </label>
      {value.variant === 'legacy' && (
        <div class="row">
          <label class="inline" for="expire-unit">
            {t('expires')}
          </label>
          <select
            id="expire-unit"
            value={value.expireUnit}
            onChange={(e) => set('expireUnit', e.currentTarget.value as ExpireUnit)}
            style={{ width: 'auto' }}
          >
            {UNITS.map((u) => (
              <option key={u.value} value={u.value}>
                {t(u.label)}
              </option>
            ))}
          </select>
          {value.expireUnit !== 'never' && (
            <>
              <label class="sr-only" for="expire-length">
                {t('expireHowMany')}
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
          {t('doNotTrack')}
        </label>
      )}
    </div>
  );
}
