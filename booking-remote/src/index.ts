// The entry imports nothing shared: the federation runtime must set up the share scope before React loads.
import('./bootstrap');
