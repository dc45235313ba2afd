// Command metapack is a command-line tool for the metapack HPACK (RFC 7541),
// QPACK (RFC 9204) and gRPC-metadata library.
//
// Usage:
//
//	metapack <command> [arguments]
//
// Run "metapack help" for the list of commands and "metapack help <command>"
// (or "metapack <command> -h") for a command's flags, examples and exit
// codes.
//
// Exit codes, for every command: 0 success, 1 the operation failed, 2 usage
// error or bad input, and 70 (EX_SOFTWARE in BSD's sysexits.h) an internal
// error, that is a panic: a bug in metapack. An internal error prints one
// line on standard error with the panic value; set METAPACK_TRACEBACK=1 to
// have the stack printed after it.
//
// "-" stands for standard input: for the stories that inflate, deflate,
// ratio and bench --corpus read, for decode's header blocks and encode's
// fields, one a line, and for the files of qpack-decode and qpack-encode.
package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// exitInternal is the exit code of an internal error (a panic): sysexits.h's
// EX_SOFTWARE. It keeps a panic apart from a usage error, 2, which is also
// the exit code of a Go program that does not recover a panic.
const exitInternal = 70

// tracebackEnv names the environment variable that, when set to a non-empty
// value, makes an internal error print the panic's stack.
const tracebackEnv = "METAPACK_TRACEBACK"

// command is one subcommand. run gets the arguments after the command name
// and the process's standard streams, and returns the process exit code.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order usage shows them.
var commands = []command{
	{"inflate", "decode the header blocks of hpack-test-case stories, optionally checking them", runInflate},
	{"deflate", "encode the header lists of hpack-test-case stories, filling in their wire", runDeflate},
	{"ratio", "compare metapack's compression with x/net's, story by story", runRatio},
	{"bench", "benchmark metapack beside x/net and unique.Make on a corpus", runBench},
	{"decode", "decode one or more hex header blocks, optionally explaining each byte", runDecode},
	{"encode", "encode name:value fields into a hex header block", runEncode},
	{"qpack-decode", "decode a QPACK offline-interop file into a QIF", runQpackDecode},
	{"qpack-encode", "encode a QIF into a QPACK offline-interop file", runQpackEncode},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs metapack with args (without the program name) and returns the
// exit code: 0 success, 1 failure, 2 usage error or bad input, 70 internal
// error. A panic in a command is reported on stderr as an internal error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			code = internalError(stderr, v, debug.Stack())
		}
	}()
	return dispatch(args, stdin, stdout, stderr)
}

// internalError reports the panic value v on stderr in one line, followed by
// stack when the environment variable tracebackEnv is set, and returns
// exitInternal. A value whose text spans lines is quoted.
func internalError(stderr io.Writer, v any, stack []byte) int {
	msg := fmt.Sprint(v)
	if strings.ContainsAny(msg, "\r\n") {
		msg = strconv.Quote(msg)
	}
	fmt.Fprintf(stderr, "metapack: internal error: panic: %s (a bug in metapack; %s=1 prints the stack)\n", msg, tracebackEnv)
	if os.Getenv(tracebackEnv) != "" {
		stderr.Write(stack)
	}
	return exitInternal
}

// dispatch runs the command that args name.
func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch name := args[0]; name {
	case "-h", "-help", "--help", "help":
		if name == "help" && len(args) > 1 {
			if c, ok := lookup(args[1]); ok {
				return c.run([]string{"-h"}, stdin, stdout, stderr)
			}
			fmt.Fprintf(stderr, "metapack help: unknown command %q; run 'metapack help' for the list\n", args[1])
			return 2
		}
		usage(stdout)
		return 0
	default:
		c, ok := lookup(name)
		if !ok {
			fmt.Fprintf(stderr, "metapack: unknown command %q; run 'metapack help' for the list\n", name)
			return 2
		}
		return c.run(args[1:], stdin, stdout, stderr)
	}
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func usage(w io.Writer) {
	fmt.Fprint(w, `metapack is a tool for HPACK (RFC 7541) header blocks, QPACK (RFC 9204)
field sections and gRPC metadata.

Usage:

	metapack <command> [arguments]

Commands:

`)
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprint(w, `
Run 'metapack help <command>' or 'metapack <command> -h' for a command's
flags, examples and exit codes.

Exit codes, for every command:
  0  success
  1  the operation failed: a decoding error, a check mismatch, a benchmark
     that could not run, or output that could not be written
  2  usage error or bad input: an unknown command or flag, a missing
     argument, an unreadable or malformed file, bad hex, a bad name:value
  70 internal error: a bug in metapack (a panic), reported in one line;
     set METAPACK_TRACEBACK=1 to print its stack as well

An error is one line on standard error starting "metapack"; usage errors
add a line that says where to find the usage.

"-" stands for standard input: for the stories that inflate, deflate,
ratio and bench --corpus read, for decode's header blocks and encode's
fields, one a line, and for the files of qpack-decode and qpack-encode.
`)
}

// checkOperands applies the checks shared by subcommands that take
// operands: at least one operand (what names them), "-" (standard input) at
// most once, and a --table-size that fits in 32 bits when tableSize is not
// nil. It passes an earlier parse error through.
func checkOperands(err error, operands []string, what string, tableSize *uint64) error {
	if err == nil && len(operands) == 0 {
		err = fmt.Errorf("no %s given", what)
	}
	if err == nil {
		err = checkStdinOnce(operands)
	}
	if err == nil && tableSize != nil && *tableSize > math.MaxUint32 {
		err = fmt.Errorf("--table-size %d is above 2^32-1", *tableSize)
	}
	return err
}

// usageError reports a usage error of subcommand cmd and returns exit code 2.
func usageError(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "metapack %s: %v\nRun 'metapack %s -h' for usage.\n", cmd, err, cmd)
	return 2
}
