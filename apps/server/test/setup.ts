import '../src/polyfills.js';
