// Setup funcs that live beside their feature register here, one import each, so the setup registry holds them
// wherever setup runs (the runner, the UI, the commands) without the runner importing the features.
import './serve-demo-site'; // serve_demo_site: the demo's browser tasks reach the site Proctor serves itself
