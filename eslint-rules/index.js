// Proctor's local ESLint plugin: rules that know the project's own layout.
import engineLayers from './engine-layers.js';

export default { meta: { name: 'proctor' }, rules: { 'engine-layers': engineLayers } };
