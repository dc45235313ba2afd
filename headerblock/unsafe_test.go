//go:build !purego

package headerblock_test

// pureGo reports whether the tests run under the purego build tag.
const pureGo = false
