import '../../platform/i18n';
import { render } from 'preact';
import '../../assets/ui.css';
import { t } from '../../lib/i18n';
import { App } from './App';

document.title = t('titleWelcome');
render(<App />, document.getElementById('app')!);
