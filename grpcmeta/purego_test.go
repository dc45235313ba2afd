//go:build purego

package grpcmeta

// pureGo tells the allocation tests that mdelem.BorrowString copies.
const pureGo = true
