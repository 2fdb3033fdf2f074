# median(list): the median of the space-separated numbers in `list` (0 when it is empty).
# The bench scripts put it before their awk program: awk "$(cat bench/mpi/median.awk)"'...'.
function median(list,    v, k, i, j, t) {
  k = split(list, v, " ")
  if (k == 0) return 0
  for (i = 2; i <= k; ++i) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
  return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
