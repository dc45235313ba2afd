// Package audit holds tests that check rules of the module's source, not
// its behaviour: under -tags purego no codec package imports unsafe; every
// use of unsafe carries a SAFETY comment that names the tests guarding it,
// and those tests exist; no codec package exports mutable tables. It has
// no code of its own.
package audit
