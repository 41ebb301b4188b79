// Options section: the sites Hushdrop was allowed to reach (asked when a server was saved or a file
// was right-clicked), each with a button that takes the permission back.
import { useEffect, useState } from 'preact/hooks';
import type { GrantedHost } from '../lib/granted-hosts';
import { t } from '../lib/i18n';
import { grantedHosts, revokeHost } from '../platform/permissions';

export function GrantedHostsSection() {
  const [hosts, setHosts] = useState<GrantedHost[]>();
  const [status, setStatus] = useState('');

  const reload = () => grantedHosts().then(setHosts);
  useEffect(() => {
    reload();
  }, []);

  async function revoke(host: GrantedHost) {
    const removed = await revokeHost(host).catch(() => false);
    setStatus(t(removed ? 'hostRevoked' : 'hostNotRevoked', host.host));
    await reload();
  }

  return (
    <section class="card" id="sites" aria-labelledby="sites-h">
      <h2 id="sites-h">{t('grantedSites')}</h2>
      <p class="small">{t('grantedSitesExplained')}</p>
      {hosts?.length === 0 && <p class="muted">{t('grantedSitesNone')}</p>}
      {hosts && hosts.length > 0 && (
        <ul class="granted-sites">
          {hosts.map((h) => (
            <li key={h.host}>
              <span class="granted-host">{h.host}</span>{' '}
              <button
                type="button"
                class="secondary"
                aria-label={t('hostRevokeNamed', h.host)}
                onClick={() => revoke(h)}
              >
                {t('hostRevoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p class="small" role="status" aria-live="polite">
        {status}
      </p>
    </section>
  );
}
