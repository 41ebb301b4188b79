import { render } from 'preact';
render(<p>Hushdrop</p>, document.getElementById('app')!);
