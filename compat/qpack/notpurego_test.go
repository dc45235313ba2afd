//go:build !purego

package qpack

const pureGo = false
