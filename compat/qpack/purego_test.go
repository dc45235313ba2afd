//go:build purego

package qpack

// pureGo reports whether the tests run under the purego build tag.
const pureGo = true
