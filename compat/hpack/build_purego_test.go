//go:build purego

package hpack_test

// puregoBuild is set under -tags purego, where mdelem copies the strings
// that the default build views in place.
const puregoBuild = true
