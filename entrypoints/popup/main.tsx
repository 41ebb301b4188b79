import '../../platform/i18n';
import { render } from 'preact';
import '../../assets/ui.css';
import { App } from './App';

render(<App />, document.getElementById('app')!);
