// The development page's entry (`npm start`): the .wasm files are loaded from next to the bundle.
import { start } from './app.js';

start();
