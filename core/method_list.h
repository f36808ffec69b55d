/* method_list.h: the sketching methods, one row each: the list that the method table (methods.c) and the result's method word (result.c) are both built from. */
#ifndef AS_METHOD_LIST_H
#define AS_METHOD_LIST_H

/* ROW(id, call, word, fname, options, fit, in_memory): id names the method
   ("rand") and its functions in methods.c (id_init, id_run); call its AS_FOR_*
   bit; word the result's field 'method'; fname the user's function; options
   its options struct; fit the function that fits the options to X's shape
   (NULL: none); in_memory NULL when X may come by blocks, else why the
   method needs X in memory. A new method touches nine files of code: this
   row; its init/run wrappers (methods.c); its option rows and functions
   (options.c) and its AS_FOR_* bit (attsparse.h); its own .c file and module
   header; R/attsparse.R (its R function) and NAMESPACE; its Octave function
   (octave/inst/<name>.m). The R glue, the Octave gateway, print and summary
   follow the tables. */
#define AS_METHOD_ROWS(ROW)                                                                     \
    ROW(rand, AS_FOR_RAND, "randomized", "attsparse_rand", as_rand_options, NULL, NULL)          \
    ROW(det, AS_FOR_DET, "deterministic", "attsparse_det", as_det_options, NULL,                  \
        "BSS revisits every column at every step")                                              \
    ROW(greedy, AS_FOR_GREEDY, "greedy", "attsparse_greedy", as_greedy_options, greedy_fit,       \
        "the greedy method computes X X' and scores every column each round")

#endif
