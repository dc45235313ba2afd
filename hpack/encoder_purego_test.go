//go:build purego

package hpack

// encPureGo reports whether the tests run under the purego build tag.
const encPureGo = true
