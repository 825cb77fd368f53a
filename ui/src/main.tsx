// The dashboard's entry point: styles and the app mounted into #app.
import { render } from 'preact';
import { App } from './App';
import './styles.css';

render(<App />, document.getElementById('app')!);
