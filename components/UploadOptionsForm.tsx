import { type MessageKey, t } from '../lib/i18n';
import type { UploadDefaults } from '../lib/settings';
import {
  chosenDeleteAfter,
  deleteAfterChoices,
  deleteAfterValue,
  expiryUnitsFor,
} from '../lib/settings/delete-after';
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

/** The API variant, a protocol word: kept under Advanced (a Hushdrop server says its own). */
export function VariantField({ value, onChange }: { value: Variant; onChange: (v: Variant) => void }) {
  return (
    <details id="advanced">
      <summary>{t('advanced')}</summary>
      <label for="variant">{t('apiVariant')}</label>
      <select id="variant" value={value} onChange={(e) => onChange(e.currentTarget.value as Variant)}>
        <option value="current">{t('variantCurrent')}</option>
        <option value="legacy">{t('variantLegacy')}</option>
      </select>
    </details>
  );
}

/** "Delete after", with only the choices the server supports; nothing when it deletes nothing by time. */
function DeleteAfterField({
  units,
  unit,
  length,
  onChange,
}: {
  units: readonly ExpireUnit[];
  unit: ExpireUnit;
  length: number;
  onChange: (unit: ExpireUnit, length: number) => void;
}) {
  const choices = deleteAfterChoices(units);
  if (choices.length < 2) return null;
  // A value set before (say 3 days) stays on offer as it was, so showing the form changes nothing.
  const kept = chosenDeleteAfter(choices, unit, length) === undefined && units.includes(unit);
  const unitLabel = UNITS.find((u) => u.value === unit)?.label ?? 'expireNever';
  return (
    <div class="row">
      <label class="inline" for="delete-after">
        {t('deleteAfter')}
      </label>
      <select
        id="delete-after"
        value={deleteAfterValue(unit, length)}
        style={{ width: 'auto' }}
        onChange={(e) => {
          const [u, n] = e.currentTarget.value.split(':');
          onChange(u as ExpireUnit, Number(n) || 1);
        }}
      >
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {t(c.label)}
          </option>
        ))}
        {kept && (
          <option value={deleteAfterValue(unit, length)}>{t('deleteAfterKept', length, t(unitLabel))}</option>
        )}
      </select>
    </div>
  );
}

/** The per-upload choices: variant, mode and the options each variant has. */
export function UploadOptionsForm({
  value,
  onChange,
  showVariant = true,
  showDoNotTrack = true,
  expiryUnits,
}: {
  value: UploadChoices;
  onChange: (v: UploadChoices) => void;
  showVariant?: boolean;
  /** Do-not-track belongs to the server (its header goes with every request to it), so only the settings show it. */
  showDoNotTrack?: boolean;
  /** The expiry units the server said each variant takes (the profile's); unknown when absent. */
  expiryUnits?: Partial<Record<Variant, ExpireUnit[]>>;
}) {
  const set = <K extends keyof UploadChoices>(k: K, v: UploadChoices[K]) => onChange({ ...value, [k]: v });
  return (
    <div>
      {showVariant && <VariantField value={value.variant} onChange={(v) => set('variant', v)} />}
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
      <DeleteAfterField
        units={expiryUnitsFor(expiryUnits, value.variant)}
        unit={value.expireUnit}
        length={value.expireLength}
        onChange={(expireUnit, expireLength) => onChange({ ...value, expireUnit, expireLength })}
      />
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
