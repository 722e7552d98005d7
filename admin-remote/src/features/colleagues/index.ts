export { ColleaguesList, ColleaguesText } from './components/ColleaguesList';
